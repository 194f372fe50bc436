import { firstLine } from '../agent/loopLimits.js';
import type { CheckResult, PlanItem, UnsequencedEvent } from '../contract/index.js';
import type { ToolLog } from '../store/toolLog.js';
import { runCheckCommand, type CheckRun } from '../tools/checkCommand.js';
import type { ToolGuard } from '../tools/executeToolCall.js';
import { defaultTimeoutS } from '../tools/runCommand.js';
import type { ToolContext } from '../tools/tool.js';
import { checkLog, currentChecksLabel, type CheckLine } from './checkLog.js';

/** Fix rounds an item gets after its check fails, before it is marked failed naming the check. */
export const maxFixRounds = 2;

export interface ItemChecksDeps {
  runId: string;
  stateDir: string;
  /** The folder's check command (Settings per folder, or the host's --check), run for items without their own. */
  folderCheck: string | null;
  toolContext: Omit<ToolContext, 'signal'>;
  toolLog: Pick<ToolLog, 'append'>;
  guard?: ToolGuard;
  emit: (event: UnsequencedEvent) => void;
  signal: AbortSignal;
}

/** A check that ran (or was denied), with what it came from. */
export type ItemCheckRun = CheckRun & Pick<CheckResult, 'source'>;

/**
 * Runs the checks of a run's Implement phase — an item's own (`Check:` in the plan) or else the folder's
 * check command — through the run's approval, and keeps each result in rpi/checks.jsonl and says it
 * (`check-finished`), so the plan shows it after a crash, a resume or a reload.
 */
export class ItemChecks {
  private readonly log;
  private calls = 0;

  constructor(private readonly deps: ItemChecksDeps) {
    this.log = checkLog(deps.stateDir, (message) => deps.emit({ type: 'warning', runId: deps.runId, message }));
  }

  /** The command an item is checked with, and where it comes from; null when it has none and the folder sets none. */
  checkOf(item: PlanItem): Pick<CheckResult, 'command' | 'source'> | null {
    if (item.check) return { command: item.check, source: 'plan' };
    return this.deps.folderCheck ? { command: this.deps.folderCheck, source: 'folder' } : null;
  }

  /** The folder's check command, for the run over the whole change after the last item; null when none is set. */
  finalCheck(): string | null {
    return this.deps.folderCheck;
  }

  /**
   * Runs `check` for the item (null: the whole change), within `timeLeftMs` and run_command's timeout, and
   * records it. Aborting the run stops the command; the caller then stops the run, leaving the item pending.
   */
  async run(item: PlanItem | null, check: Pick<CheckResult, 'command' | 'source'>, round: number, timeLeftMs: number): Promise<ItemCheckRun> {
    const { runId, emit } = this.deps;
    const callId = `${runId}-check-${(this.calls += 1)}`;
    const args = { command: check.command };
    emit({ type: 'tool-started', runId, callId, tool: 'run_command', args, ...(item ? { item: item.index } : {}) });
    const started = performance.now();
    const ran = await runCheckCommand({
      command: check.command,
      runId,
      context: { ...this.deps.toolContext, signal: this.deps.signal },
      toolLog: this.deps.toolLog,
      ...(this.deps.guard ? { guard: this.deps.guard } : {}),
      origin: originOf(item, check.source),
      timeoutS: Math.min(defaultTimeoutS, Math.floor(timeLeftMs / 1000)),
    });
    const result: CheckResult = { command: ran.command, source: check.source, outcome: ran.outcome, exitCode: ran.exitCode };
    emit({ type: 'tool-finished', runId, callId, ok: ran.outcome === 'passed', summary: firstLine(ran.contextText), durationMs: Math.round(performance.now() - started) });
    if (!this.deps.signal.aborted) {
      await this.record({ ...result, runId, ts: Date.now(), index: item?.index ?? null, round });
      emit({ type: 'check-finished', runId, index: item?.index ?? null, label: item?.label ?? 'Whole change', round, ...result });
    }
    return { ...ran, source: check.source };
  }

  private async record(line: CheckLine): Promise<void> {
    await this.log.append(line).catch((error: unknown) => {
      const reason = error instanceof Error ? error.message : String(error);
      this.deps.emit({ type: 'warning', runId: this.deps.runId, message: `The result of the check \`${line.command}\` could not be kept in ${currentChecksLabel(this.deps.stateDir)} (${reason}); the plan shows it until the page reloads.` });
    });
  }
}

/** What the approval says the check is: "The check of plan item 2 (“Add ledger”), written in the plan". */
function originOf(item: PlanItem | null, source: CheckResult['source']): string {
  if (item === null) return 'The folder’s check command, run over the whole change after the last plan item';
  const which = `plan item ${item.number} (“${item.label}”)`;
  return source === 'plan'
    ? `The check of ${which}, written by the model in the plan, run because the item says it is done`
    : `The folder’s check command, run because ${which} says it is done`;
}
