import type { Phase } from '../contract/index.js';
import { changedFilesSince, describeChanges } from './changedFiles.js';
import { describeChecks } from './checkSummary.js';
import { ImplementPhase } from './implementPhase.js';
import { PhaseLoops } from './phaseLoops.js';
import { planPhase, researchPhase, summaryPhase } from './phases.js';
import { withoutOriginalCount } from './planFile.js';
import { PhaseStopped, type RpiOutcome, type RpiRun, type Stopped } from './rpiRun.js';
import { readPlan, readResearch, readRpiState, writePlan, writeResearch } from './rpiState.js';
import { answersText, researchWithAnswers } from './userAnswers.js';

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Runs what the state on disk calls for: Research without research.md, Plan without plan.md, Implement
 * while an item is pending, then the Summary. A run that stopped (cancel, crash, failure) therefore goes
 * on where it stopped, and a done item is never run again.
 */
export async function runRpi(run: RpiRun): Promise<RpiOutcome> {
  const loops = new PhaseLoops(run);
  const orchestrator = new Orchestrator(loops);
  const implement = new ImplementPhase(loops);
  try {
    const state = await readRpiState(run.stateDir);
    if (!state.hasResearch) await orchestrator.phase('research', () => orchestrator.research());
    if (!state.hasPlan) await orchestrator.phase('plan', () => orchestrator.plan());
    if (run.planReview) await orchestrator.review(run.planReview);
    const reviewed = await readRpiState(run.stateDir);
    if (!reviewed.allDone || implement.finalCheckDue(reviewed)) await orchestrator.phase('implement', () => implement.implement());
    const summary = await orchestrator.phase('summary', () => orchestrator.summary());
    return { status: 'done', summary };
  } catch (error) {
    if (error instanceof PhaseStopped) return error.outcome;
    throw error;
  }
}

/** The phase sequence around Implement: Research, Plan, the plan's review and the Summary, each announced as it runs. */
class Orchestrator {
  private readonly run: RpiRun;
  private readonly emit: RpiRun['emit'];

  constructor(private readonly loops: PhaseLoops) {
    this.run = loops.run;
    this.emit = loops.emit;
  }

  /** Announces a phase, runs it, and turns its failure into an outcome tagged with the phase. */
  async phase<T>(phase: Phase, body: () => Promise<T>): Promise<T> {
    const { runId } = this.run;
    this.emit({ type: 'phase-started', runId, phase, model: this.loops.models.modelOf(phase).llm.model });
    this.loops.models.announceWindow(phase);
    try {
      const value = await body();
      this.emit({ type: 'phase-completed', runId, phase, ok: true });
      return value;
    } catch (error) {
      const outcome: Stopped = error instanceof PhaseStopped ? error.outcome : this.run.signal.aborted ? { status: 'cancelled', phase } : { status: 'failed', phase, error: messageOf(error) };
      const message = outcome.status === 'failed' ? outcome.error : 'Cancelled by the user.';
      this.emit({ type: 'phase-completed', runId, phase, ok: false, error: message });
      throw error instanceof PhaseStopped ? error : new PhaseStopped(outcome);
    }
  }

  /** Research, told the answers an earlier, stopped run of the request already had; its findings get every answer appended. */
  async research(): Promise<void> {
    await this.loops.offerToolsFor([this.run.request]);
    const answers = answersText(await this.loops.answers.all());
    const result = await this.loops.loop(researchPhase, { ...(await this.loops.briefing('research')), manifest: await this.loops.sources.manifest(3), answers });
    const text = this.loops.textOrStop('research', result);
    if (!text.trim()) this.loops.stop('research', 'The model ended research without writing any findings.');
    await writeResearch(this.run.stateDir, researchWithAnswers(text, await this.loops.answers.all()));
  }

  async plan(): Promise<void> {
    const research = (await readResearch(this.run.stateDir)) ?? '';
    const result = await this.loops.loop(planPhase, { ...(await this.loops.briefing('plan')), research, manifest: await this.loops.sources.manifest(2) }, {
      // Plan's answers join research.md as they come, so Implement and a resumed Plan read them there.
      onAnswer: async () => writeResearch(this.run.stateDir, researchWithAnswers((await readResearch(this.run.stateDir)) ?? '', await this.loops.answers.all())),
    });
    const text = this.loops.textOrStop('plan', result);
    if (!text.trim()) this.loops.stop('plan', 'The model ended planning without writing a plan.');
    await writePlan(this.run.stateDir, text);
    this.emit({ type: 'plan-updated', runId: this.run.runId, items: (await readRpiState(this.run.stateDir)).items });
  }

  /** The review gate between Plan and Implement: approve, approve an edited plan, or reject (the run stops, resumable). */
  async review(gate: NonNullable<RpiRun['planReview']>): Promise<void> {
    const { stateDir, runId } = this.run;
    const { items } = await readRpiState(stateDir);
    if (!items.some((item) => item.status === 'pending') || gate.isApproved(items)) return;
    const answer = await gate.review(items, (await readPlan(stateDir)) ?? '');
    if (answer.decision === 'cancelled') throw new PhaseStopped({ status: 'cancelled', phase: 'plan' });
    if (answer.decision === 'reject') {
      throw new PhaseStopped({ status: 'cancelled', phase: 'plan', reason: 'The plan was rejected. Resume to review it again, or send a new message.' });
    }
    let approved = items;
    if (answer.decision === 'edit') {
      await writePlan(stateDir, withoutOriginalCount(answer.plan));
      approved = (await readRpiState(stateDir)).items;
      this.emit({ type: 'plan-updated', runId, items: approved });
    }
    gate.approved(approved);
  }

  async summary(): Promise<string> {
    const { stateDir, request, startedAt } = this.run;
    const planText = (await readPlan(stateDir)) ?? '';
    const { workspace } = this.run.toolContext;
    const changes = await changedFilesSince(workspace.root, this.run.toolLogFile, startedAt, { signal: this.run.signal, onUnreachable: workspace.unreachable.report });
    const { items, finalCheck } = await readRpiState(stateDir);
    const result = await this.loops.loop(
      summaryPhase,
      { request, planText, changes: describeChanges(changes), checks: describeChecks(items, finalCheck) },
      { onTextDelta: (text) => this.emit({ type: 'summary-delta', runId: this.run.runId, text }) },
    );
    const text = this.loops.textOrStop('summary', result).trim();
    if (!text) this.loops.stop('summary', 'The model sent an empty summary.');
    await this.run.saveSummary(text);
    return text;
  }
}
