import { useWorkbench } from '../../store/StoreContext.js';

/** The title the list shows for a conversation; its id when the list does not have it yet. */
export function useConversationTitle(conversationId: string | null): string {
  return useWorkbench((state) => state.conversations.find((conversation) => conversation.id === conversationId)?.title ?? conversationId ?? '');
}
