import { pathsNamedIn } from '../context/projectInstructions.js';
import { checkFailureReason } from '../contract/checkText.js';
import type { PlanItem } from '../contract/index.js';
import { implementPhase, type FixRound, type ImplementStart } from './phases.js';
import { maxFixRounds } from './itemChecks.js';
import type { PhaseLoops } from './phaseLoops.js';
import { extractNewPlanItems, parsePlan, withoutOutcomes } from './planFile.js';
import { failureLinePattern } from './prompts.js';
import { PhaseStopped, type RpiRun } from './rpiRun.js';
import { completeItem, markItem, readPlan, readPlanState, type PlanState } from './rpiState.js';
import { answersText } from './userAnswers.js';

/** The Implement phase as it began: what every item is given the same way, and what later ones are told apart from it. */
interface PhaseStart extends ImplementStart {
  /** Items plan.md had; the ones after them were added while implementing. */
  itemCount: number;
  /** Where the run's change records stood (ChangeRecords.mark). */
  changesMark: number;
  /** The window the attached items were read for. */
  contextWindow: number;
}

/**
 * The Implement phase of a run: its items one by one, each retried once, checked and sent back for fix
 * rounds; the items the model appends; and the folder's check over the whole change at the end.
 */
export class ImplementPhase {
  private readonly run: RpiRun;

  constructor(private readonly loops: PhaseLoops) {
    this.run = loops.run;
  }

  /** Every item is through, but the folder's check has not yet run over the whole change they made. */
  finalCheckDue(state: PlanState): boolean {
    return this.loops.checks.finalCheck() !== null && state.finalCheck === undefined && state.items.some((item) => item.status === 'done');
  }

  /**
   * Each pending item in file order, in a fresh context; plan.md is re-read before every item. What the
   * items share (the briefing, the plan as approved, the file map) is read once, when the phase begins.
   */
  async implement(): Promise<void> {
    let start = await this.implementStart();
    for (let ran = false; ; ran = true) {
      const state = await readPlanState(this.run.stateDir);
      const { items } = state;
      const item = items.find((candidate) => candidate.status === 'pending');
      if (!item) {
        if (ran || this.finalCheckDue(state)) await this.checkWholeChange(state);
        return;
      }
      const window = this.loops.models.windowOf('implement');
      if (start.contextWindow !== window) {
        // A server refused a request as too long, leaving a smaller window: the attached items are read again within it.
        start = { ...start, attachments: await this.loops.sources.attachments('implement', window), contextWindow: window };
      }
      this.loops.emit({ type: 'implement-progress', runId: this.run.runId, current: item.index + 1, total: items.length, label: item.label });
      const deadline = Date.now() + this.run.limits.timeoutMs.implement;
      const first = await this.attempt(start, item, items, { retryReason: this.run.retryReasons?.[String(item.index)] });
      const outcome = first.ok ? first : await this.attempt(start, item, items, { retryReason: first.reason });
      const updated = outcome.ok
        ? await this.checkedItem({ start, item, items, deadline }, outcome.text)
        : await markItem(this.run.stateDir, item.index, 'failed', outcome.reason);
      this.loops.emit({ type: 'plan-updated', runId: this.run.runId, items: updated });
    }
  }

  /**
   * An item that says it is done, once its check (its own, else the folder's) has run: a failed check goes
   * back to the item, with its output, for up to maxFixRounds fix rounds (instead of the ordinary retry),
   * each within the item's time limit; still failing, the item is marked failed naming the check. A denied
   * check leaves the item done, its check shown as denied.
   */
  private async checkedItem(work: { start: PhaseStart; item: PlanItem; items: readonly PlanItem[]; deadline: number }, doneText: string): Promise<PlanItem[]> {
    const { start, item, items, deadline } = work;
    const check = this.loops.checks.checkOf(item);
    let text = doneText;
    for (let round = 0; check !== null; round += 1) {
      const ran = await this.loops.checks.run(item, check, round, deadline - Date.now());
      if (this.run.signal.aborted) throw new PhaseStopped({ status: 'cancelled', phase: 'implement' });
      if (ran.outcome !== 'failed') break;
      const reason = checkFailureReason(ran.command, ran.exitCode);
      if (round === maxFixRounds || deadline <= Date.now()) return markItem(this.run.stateDir, item.index, 'failed', reason);
      const fixRound = { round: round + 1, of: maxFixRounds, reason, output: ran.contextText };
      const fix = await this.attempt(start, item, items, { fixRound, timeoutMs: deadline - Date.now() });
      if (!fix.ok) return markItem(this.run.stateDir, item.index, 'failed', fix.reason);
      text = fix.text;
    }
    return this.finishItem(item, text);
  }

  /** The folder's check, once more over the whole change after the last item; a failure is told, and the summary reports it. */
  private async checkWholeChange(state: PlanState): Promise<void> {
    const command = this.loops.checks.finalCheck();
    if (command === null || !state.items.some((item) => item.status === 'done')) return;
    await this.loops.checks.run(null, { command, source: 'folder' }, 0, this.run.limits.timeoutMs.implement);
    if (this.run.signal.aborted) throw new PhaseStopped({ status: 'cancelled', phase: 'implement' });
  }

  /** What every item of this Implement phase is given the same way, and where the run's change records stood. */
  private async implementStart(): Promise<PhaseStart> {
    const planText = (await readPlan(this.run.stateDir)) ?? '';
    await this.loops.offerToolsFor([this.run.request, planText]);
    return {
      ...(await this.loops.briefing('implement')),
      approvedPlan: withoutOutcomes(planText),
      manifest: await this.loops.sources.manifest(3),
      answers: answersText(await this.loops.answers.all()),
      itemCount: parsePlan(planText).items.length,
      changesMark: this.loops.changes.mark(),
      contextWindow: this.loops.models.windowOf('implement'),
    };
  }

  private async attempt(
    start: PhaseStart,
    item: PlanItem,
    items: readonly PlanItem[],
    { retryReason, fixRound, timeoutMs }: { retryReason?: string | undefined; fixRound?: FixRound; timeoutMs?: number } = {},
  ): Promise<{ ok: true; text: string } | { ok: false; reason: string }> {
    const input = {
      start,
      item,
      step: item.index + 1,
      items,
      added: items.slice(start.itemCount),
      folderInstructions: await this.loops.sources.folderInstructions('implement', pathsNamedIn(`${item.label} ${item.description}`)),
      changedFiles: this.loops.changes.since(start.changesMark),
    };
    const result = await this.loops.loop(implementPhase, { ...input, ...(retryReason === undefined ? {} : { retryReason }), ...(fixRound ? { fixRound } : {}) }, { timeoutMs, item: item.index });
    if (!result.ok) {
      // Cancel, and a model server that fails, stop the run with the item still pending (resumable);
      // an item fails only for its own work: limits reached, or the model saying it could not do it.
      if (result.failure === 'cancelled' || (result.failure === 'model' && result.llmError?.kind !== 'bad-request')) {
        this.loops.textOrStop('implement', result);
      }
      return { ok: false, reason: result.error };
    }
    const declared = [...result.text.matchAll(new RegExp(failureLinePattern, 'gim'))].at(-1)?.[1];
    return declared ? { ok: false, reason: declared } : { ok: true, text: result.text };
  }

  private async finishItem(item: PlanItem, finalText: string): Promise<PlanItem[]> {
    const { items, appended, warning } = await completeItem(this.run.stateDir, item.index, extractNewPlanItems(finalText));
    if (warning) this.loops.emit({ type: 'warning', runId: this.run.runId, message: warning });
    if (appended.length > 0) this.run.planReview?.extended(items.slice(0, items.length - appended.length), items);
    return items;
  }
}
