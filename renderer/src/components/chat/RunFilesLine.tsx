import { useState } from 'react';
import type { Message, PlanItem } from '../../../../engine/contract/index.js';
import { describePlanTally, tallyPlan } from '../../../../engine/contract/runHistory.js';
import { useWorkbench } from '../../store/StoreContext.js';
import { RpiFileDialog, type RpiFile } from '../run/RpiFileDialog.js';

interface OpenFile {
  file: RpiFile;
  /** undefined while loading. */
  text?: string | null;
  reason?: string;
  items?: PlanItem[];
}

const noItems: PlanItem[] = [];

/**
 * Under a request: its plan's outcome ("Plan: 3/4 done, 1 failed") and View research / View plan, which
 * open the files its run wrote: the current run's, or those kept in the plan history for an earlier request.
 * A request whose run kept nothing shows nothing.
 */
export function RunFilesLine({ message }: { message: Message }) {
  // Own entries only: an id such as "constructor" or "__proto__" names no kept run, whatever runs inherits.
  const kept = useWorkbench((state) => (Object.hasOwn(state.runs, message.id) ? state.runs[message.id] : undefined));
  const live = useWorkbench((state) => state.running && state.run?.messageId === message.id);
  const liveItems = useWorkbench((state) => (state.running && state.run?.messageId === message.id ? state.run.items : noItems));
  const readRunFile = useWorkbench((state) => state.readRunFile);
  const [open, setOpen] = useState<OpenFile | null>(null);
  if (!kept && !live) return null;

  const plan = live && liveItems.length > 0 ? tallyPlan(liveItems) : (kept?.plan ?? null);
  const show = async (file: RpiFile) => {
    setOpen({ file });
    const response = await readRunFile(message.id, file);
    const loaded: OpenFile = !response.ok
      ? { file, text: null, reason: response.error }
      : response.value.text === null
        ? { file, text: null, reason: response.value.reason }
        : { file, text: response.value.text, ...(response.value.items ? { items: response.value.items } : {}) };
    setOpen((current) => (current?.file === file ? loaded : current));
  };

  return (
    <div className="run-files-line" data-testid="run-files-line">
      {plan && (
        <span className="muted" data-testid="plan-tally">
          {describePlanTally(plan)}
        </span>
      )}
      {(live || kept?.research) && (
        <button type="button" className="button-quiet button-small" onClick={() => void show('research')} title="The research notes this request’s run wrote">
          View research
        </button>
      )}
      {(live || kept?.plan) && (
        <button type="button" className="button-quiet button-small" onClick={() => void show('plan')} title="This request’s plan, with the outcome of each step">
          View plan
        </button>
      )}
      {open && <RpiFileDialog {...open} text={open.text} request={headline(message.text)} onClose={() => setOpen(null)} />}
    </div>
  );
}

/** The request's first non-empty line, cut short, to say whose file the dialog shows. */
function headline(text: string): string {
  const line = (text.split('\n').find((candidate) => candidate.trim() !== '') ?? '').trim();
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}
