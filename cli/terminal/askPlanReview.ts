import type { PlanDecision, PlanReviewView } from '../../engine/contract/index.js';
import type { Workbench } from '../../engine/index.js';
import { messageOf } from '../commands/cliError.js';
import { parsePlanAnswer } from './answerParser.js';
import { planForReview, planMenu } from './planReviewText.js';
import type { Prompter } from './prompter.js';

export interface AskPlanReviewOptions {
  view: PlanReviewView;
  workbench: Pick<Workbench, 'request'>;
  prompter: Prompter;
  /** Aborted when the run ends while the plan waits (Ctrl-C): stop asking. */
  signal: AbortSignal;
}

/**
 * Shows the plan and asks until it is approved, rejected, or approved as edited in $EDITOR. An edited
 * plan the engine refuses (no items left) is explained, and the next edit starts from it. No answer at
 * all (input ended) rejects: the run stops before Implement and stays resumable.
 */
export async function askPlanReview({ view, workbench, prompter, signal }: AskPlanReviewOptions): Promise<void> {
  let draft = view.planText;
  prompter.print(planForReview(view));
  for (;;) {
    const input = await prompter.ask(planMenu, signal);
    if (signal.aborted) return;
    if (input === null) {
      prompter.print('  No answer (end of input): the plan is rejected.');
      return void (await answer({ decision: 'reject' }));
    }
    const parsed = parsePlanAnswer(input);
    if (!parsed.ok) {
      prompter.print(`  ${parsed.message}`);
      continue;
    }
    if (parsed.choice === 'view') {
      prompter.print(planForReview({ ...view, planText: draft }));
      continue;
    }
    if (parsed.choice !== 'edit') return void (await answer({ decision: parsed.choice }));
    try {
      draft = await prompter.edit(draft, 'plan.md');
    } catch (error) {
      prompter.print(`  ${messageOf(error)}`);
      continue;
    }
    if (signal.aborted) return;
    if (await answer({ decision: 'edit', plan: draft })) return prompter.print('  Approved your edited plan.');
  }

  /** Gives the engine the decision; false (its reason printed) when it refuses it. */
  async function answer(decision: PlanDecision): Promise<boolean> {
    try {
      await workbench.request('session:review-plan', decision);
      return true;
    } catch (error) {
      if (signal.aborted) return true;
      prompter.print(`  ${messageOf(error)}`);
      return false;
    }
  }
}
