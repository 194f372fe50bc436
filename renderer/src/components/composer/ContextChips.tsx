import './composer.css';
import { contextItemLabel } from '../../../../engine/contract/contextItemLabel.js';
import type { ContextItem } from '../../../../engine/contract/index.js';

interface ContextChipsProps {
  items: readonly ContextItem[];
  /** Given in the request box: each chip gets a remove button. The chat shows them read-only. */
  onRemove?: (index: number) => void;
  label: string;
}

const kindName = { file: 'File', folder: 'Folder', note: 'Note' } as const;

/** The files, folders and notes attached to a request, as chips. */
export function ContextChips({ items, onRemove, label }: ContextChipsProps) {
  if (items.length === 0) return null;
  return (
    <ul className="context-chips" aria-label={label} data-testid="context-chips">
      {items.map((item, index) => {
        const name = contextItemLabel(item);
        const full = item.kind === 'note' ? item.text : name;
        return (
          <li key={`${item.kind}:${item.kind === 'note' ? index : item.path}`} className={`context-chip context-chip-${item.kind}`} data-testid="context-chip" data-kind={item.kind} title={`${kindName[item.kind]}: ${full.slice(0, 500)}`}>
            <span className="context-chip-kind">{kindName[item.kind]}</span>
            <span className="context-chip-label">{item.kind === 'note' ? name.replace(/^note: /, '') : name}</span>
            {onRemove && (
              <button type="button" className="context-chip-remove button-quiet" aria-label={`Remove ${name}`} data-testid="context-chip-remove" onClick={() => onRemove(index)}>
                ×
              </button>
            )}
          </li>
        );
      })}
    </ul>
  );
}
