import type { Message } from '../../../../engine/contract/index.js';
import { useWorkbench } from '../../store/StoreContext.js';

export type RewindAction = 'undo' | 'regenerate';

interface MessageActionsProps {
  message: Message;
  /** Asks for a confirmation of undoing to before this message, or of regenerating its request. */
  onRewind: (action: RewindAction, message: Message) => void;
}

const actions: { action: RewindAction; label: string; hint: string }[] = [
  { action: 'undo', label: 'Undo', hint: 'Put the files back as they were before this request and remove it from the chat' },
  { action: 'regenerate', label: 'Regenerate', hint: 'Undo this request, then send it again' },
];

const busy = 'Not while a run is in progress';

/** Undo and Regenerate for one message; shown on hover or focus, unavailable while a run is active. */
export function MessageActions({ message, onRewind }: MessageActionsProps) {
  const running = useWorkbench((state) => state.running);
  return (
    <div className="message-actions" data-testid="message-actions">
      {actions.map(({ action, label, hint }) => (
        <button
          key={action}
          type="button"
          className="button-quiet button-small"
          data-testid={`${action}-button`}
          disabled={running}
          title={running ? busy : hint}
          onClick={() => onRewind(action, message)}
        >
          {label}
        </button>
      ))}
    </div>
  );
}
