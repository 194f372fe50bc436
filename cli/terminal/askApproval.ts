import type { ApprovalRequestView } from '../../engine/contract/index.js';
import type { Workbench } from '../../engine/index.js';
import { messageOf } from '../commands/cliError.js';
import { parseApprovalAnswer } from './answerParser.js';
import { approvalDetails, approvalHeadline, approvalMenu } from './approvalText.js';
import type { Prompter } from './prompter.js';

export interface AskApprovalOptions {
  request: ApprovalRequestView;
  workbench: Pick<Workbench, 'approve'>;
  prompter: Prompter;
  /** Aborted when the request is settled elsewhere (expired, the run cancelled): stop asking. */
  signal: AbortSignal;
  now?: () => number;
}

/**
 * Asks until the request is answered: approve, deny, always allow, or approve with edited arguments.
 * The engine checks an edit; when it refuses one, its reason is shown and the question is asked again,
 * the next edit starting from the refused text. No answer at all (input ended) denies.
 */
export async function askApproval({ request, workbench, prompter, signal, now = Date.now }: AskApprovalOptions): Promise<void> {
  let draft = `${JSON.stringify(request.args, null, 2)}\n`;
  prompter.print(approvalHeadline(request, now()));
  for (;;) {
    const input = await prompter.ask(approvalMenu(request), signal);
    if (signal.aborted) return;
    if (input === null) {
      prompter.print('  No answer (end of input): denied.');
      await tryAnswer(() => workbench.approve(request.requestId, { decision: 'deny' }));
      return;
    }
    const parsed = parseApprovalAnswer(input, request);
    if (!parsed.ok) {
      prompter.print(`  ${parsed.message}`);
      continue;
    }
    switch (parsed.choice) {
      case 'view':
        prompter.print(approvalDetails(request));
        continue;
      case 'deny':
      case 'approve': {
        const decision = parsed.choice;
        await tryAnswer(() => workbench.approve(request.requestId, { decision }));
        return;
      }
      case 'always':
        if (await tryAnswer(() => workbench.approve(request.requestId, { decision: 'approve', alwaysAllow: true }))) return;
        continue;
      case 'edit': {
        const edited = await editArguments(prompter, draft);
        if (signal.aborted) return;
        if (edited.text !== null) draft = edited.text;
        if (edited.args === null) continue;
        const args = edited.args;
        if (await tryAnswer(() => workbench.approve(request.requestId, { decision: 'approve', args }))) return;
        continue;
      }
    }
  }

  /** Gives the engine the answer; false (its reason printed) when it refuses it: an invalid edit, "always allow" for a complex command. */
  async function tryAnswer(answer: () => Promise<string>): Promise<boolean> {
    try {
      const decision = await answer();
      if (decision === 'edited') prompter.print('  Approved with your edits.');
      return true;
    } catch (error) {
      if (signal.aborted) return true;
      prompter.print(`  ${messageOf(error)}`);
      return false;
    }
  }
}

/** Opens the arguments as JSON in the editor; `args` is null (with the reason printed) when they are not a JSON object. */
async function editArguments(prompter: Prompter, draft: string): Promise<{ text: string | null; args: Record<string, unknown> | null }> {
  let text: string;
  try {
    text = await prompter.edit(draft, 'arguments.json');
  } catch (error) {
    prompter.print(`  ${messageOf(error)}`);
    return { text: null, args: null };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    prompter.print(`  The edited arguments are not valid JSON (${messageOf(error)}); nothing was approved.`);
    return { text, args: null };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    prompter.print('  The edited arguments must be a JSON object, like {"path": "…"}; nothing was approved.');
    return { text, args: null };
  }
  return { text, args: value as Record<string, unknown> };
}
