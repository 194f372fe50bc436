import type { ConversationSummary, UnsequencedEvent } from '../contract/index.js';
import { RunRefusedError } from '../contract/runRefusedError.js';
import type { CheckpointStore } from '../checkpoints/checkpointStore.js';
import { conversationSummaries } from '../conversations/conversationActivity.js';
import type { Conversations, ConversationScope, ListedConversation } from '../conversations/conversations.js';
import type { RunGate } from './runGate.js';

export interface ConversationDeskDeps {
  conversations: Conversations;
  runs: Pick<RunGate, 'runningConversation' | 'whileIdle'>;
  checkpoints: Pick<CheckpointStore, 'collect'>;
  emit: (event: UnsequencedEvent) => void;
}

/**
 * The list of a folder's conversations as its pages use it: starting, renaming and deleting one, each
 * announced to every page (`conversation-updated`, `conversation-deleted`), with the run gate's mark.
 */
export class ConversationDesk {
  constructor(private readonly deps: ConversationDeskDeps) {}

  list(): Promise<ConversationSummary[]> {
    return conversationSummaries(this.deps.conversations, this.deps.runs.runningConversation);
  }

  /** The conversation asked for (or the most recent), refused when the folder has none. */
  async existing(conversationId?: string): Promise<ConversationScope> {
    const scope = await this.deps.conversations.find(conversationId);
    if (!scope) throw new RunRefusedError('This folder has no conversation yet: send a request to start one.');
    return scope;
  }

  async create(): Promise<ConversationSummary> {
    return this.announce(await this.deps.conversations.create());
  }

  async rename(conversationId: string, title: string): Promise<ConversationSummary> {
    return this.announce(await this.deps.conversations.rename(conversationId, title));
  }

  /**
   * Deletes the conversation (its history and kept plans), then collects the checkpoints that no remaining
   * conversation's history names; refused while a run is active. When a history cannot be read, nothing
   * is collected: a checkpoint is only ever removed when it is certainly no one's.
   */
  remove(conversationId: string): Promise<{ deleted: string; collectedCheckpoints: number }> {
    return this.deps.runs.whileIdle(async () => {
      const { conversations, checkpoints, emit } = this.deps;
      const scope = await this.existing(conversationId);
      await conversations.remove(scope.id);
      emit({ type: 'conversation-deleted', runId: null, deletedId: scope.id });
      const histories = await conversations.writtenHistories().catch((error: unknown) => {
        const reason = error instanceof Error ? error.message : String(error);
        emit({ type: 'warning', runId: null, message: `${reason} The checkpoints of the deleted conversation were kept.` });
        return null;
      });
      if (histories === null) return { deleted: scope.id, collectedCheckpoints: 0 };
      const { removedCheckpoints } = await checkpoints.collect((info) => histories.includes(info.tag.messageId));
      return { deleted: scope.id, collectedCheckpoints: removedCheckpoints };
    });
  }

  private announce(listed: ListedConversation): ConversationSummary {
    const conversation = { ...listed, running: listed.id === this.deps.runs.runningConversation };
    this.deps.emit({ type: 'conversation-updated', runId: null, conversation });
    return conversation;
  }
}
