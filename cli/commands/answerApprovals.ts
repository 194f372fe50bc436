import type { ApprovalRequestView, PlanReviewView, QuestionRequestView, WorkbenchEvent } from '../../engine/contract/index.js';
import type { Workbench } from '../../engine/index.js';
import { askApproval } from '../terminal/askApproval.js';
import { askPlanReview } from '../terminal/askPlanReview.js';
import { askQuestion } from '../terminal/askQuestion.js';
import type { Prompter } from '../terminal/prompter.js';
import { describeCall } from '../terminal/toolLines.js';
import { visibleLine } from '../terminal/visibleText.js';
import { messageOf } from './cliError.js';

/**
 * Who answers the run's approval requests, the model's questions and its plan review:
 * - `yes`: approve everything (--yes); questions get no answer (the model goes on with its best assumption);
 * - `ask`: the person at the terminal, one question at a time;
 * - `deny`: nobody can answer (not a terminal, no --yes): requests are denied and the plan is rejected,
 *   each with a note saying how to allow it; questions get no answer.
 */
export type Answerer = { kind: 'yes' } | { kind: 'ask'; prompter: Prompter } | { kind: 'deny' };

export interface AnswerApprovalsOptions {
  workbench: Workbench;
  answerer: Answerer;
  /** A line on stderr. */
  note: (text: string) => void;
  /** `rpi-workbench resume <folder>`, for the notes. */
  resumeCommand: string;
}

/** Subscribes to the workbench and answers as `answerer` says; returns the unsubscribe. */
export function answerApprovals({ workbench, answerer, note, resumeCommand }: AnswerApprovalsOptions): () => void {
  const open = new Map<string, AbortController>();
  let queue = Promise.resolve();
  // Questions go one at a time; answers go after the event that asked has reached every listener.
  const later = (task: () => Promise<void> | void) => {
    queue = queue.then(task).catch((error: unknown) => note(`rpi-workbench: ${messageOf(error)}`));
  };
  const withdrawable = (key: string) => {
    const controller = new AbortController();
    open.set(key, controller);
    return controller.signal;
  };

  const onApproval = (request: ApprovalRequestView) => {
    if (answerer.kind === 'yes') return later(() => void workbench.request('session:approve', { requestId: request.requestId, decision: 'approve' }).catch(() => undefined));
    if (answerer.kind === 'deny') {
      note(`rpi-workbench: ${deniedNote(request)}`);
      return later(() => void workbench.request('session:approve', { requestId: request.requestId, decision: 'deny' }).catch(() => undefined));
    }
    const signal = withdrawable(request.requestId);
    later(() => askApproval({ request, workbench, prompter: answerer.prompter, signal }).finally(() => open.delete(request.requestId)));
  };

  const onPlan = (view: PlanReviewView) => {
    if (answerer.kind === 'yes') return later(async () => void (await workbench.request('session:review-plan', { decision: 'approve' })));
    if (answerer.kind === 'deny') {
      note(`rpi-workbench: ${rejectedPlanNote(resumeCommand)}`);
      return later(async () => void (await workbench.request('session:review-plan', { decision: 'reject' })));
    }
    const signal = withdrawable('plan');
    later(() => askPlanReview({ view, workbench, prompter: answerer.prompter, signal }).finally(() => open.delete('plan')));
  };

  const onQuestion = (question: QuestionRequestView) => {
    if (answerer.kind !== 'ask') {
      note(`rpi-workbench: ${unansweredNote(question, answerer.kind)}`);
      return later(() => void workbench.request('session:answer-question', { requestId: question.requestId }).catch(() => undefined));
    }
    const signal = withdrawable(question.requestId);
    later(() => askQuestion({ question, workbench, prompter: answerer.prompter, signal }).finally(() => open.delete(question.requestId)));
  };

  return workbench.subscribe((event: WorkbenchEvent) => {
    if (event.type === 'approval-requested') onApproval(event);
    else if (event.type === 'question-asked') onQuestion(event);
    else if (event.type === 'question-answered') open.get(event.requestId)?.abort();
    else if (event.type === 'plan-ready') onPlan(event);
    else if (event.type === 'approval-resolved') open.get(event.requestId)?.abort();
    else if (event.type === 'run-finished') for (const controller of open.values()) controller.abort();
  });
}

export function deniedNote(request: ApprovalRequestView): string {
  return (
    `denied ${describeCall(request.tool, request.args)}: ${request.reason}, and nobody can answer here (not a terminal). ` +
    'To allow such requests, pass --yes, or set the approval policies in Settings (files: auto; commands: allow-list or auto).'
  );
}

export function unansweredNote(question: QuestionRequestView, why: 'yes' | 'deny'): string {
  const nobody = why === 'yes' ? 'with --yes nobody is asked' : 'nobody can answer here (not a terminal)';
  return `the model asked "${visibleLine(question.question)}", and ${nobody}: no answer, so it goes on with its best assumption and states it.`;
}

export function rejectedPlanNote(resumeCommand: string): string {
  return (
    'the plan needs your review (plan review is on in Settings), and nobody can answer here (not a terminal), so it was not approved ' +
    `and the run stops before Implement. Review it in a terminal with \`${resumeCommand}\`, or approve it unseen with \`${resumeCommand} --yes\`.`
  );
}
