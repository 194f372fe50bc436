import type { ApprovalRequestView, ParsedPayload } from '../../engine/contract/index.js';
import type { Workbench } from '../../engine/index.js';
import { messageOf } from '../commands/cliError.js';
import { parseApprovalAnswer } from './answerParser.js';
import { previewedTools, previewLines, plainText } from './approvalPreviewText.js';
import { approvalDetails, approvalHeadline, approvalMenu } from './approvalText.js';
import type { StyledLine } from './diffText.js';
import type { Prompter } from './prompter.js';

export interface AskApprovalOptions {
  request: ApprovalRequestView;
  workbench: Pick<Workbench, 'request'>;
  prompter: Prompter;
  /** Aborted when the request is settled elsewhere (expired, the run cancelled): stop asking. */
  signal: AbortSignal;
  now?: () => number;
}

/** Diff lines shown with the question; [v]iew shows them all. */
const shownDiffLines = 60;

/**
 * Asks until the request is answered: approve, deny, always allow, allow for the rest of the request, or
 * approve with edited arguments. A file change shows its diff first. An edit of a file change is previewed
 * (the engine checks it: when it refuses, its reason is shown and the next edit starts from the refused
 * text) and asked about again, so what is approved is the diff just seen; other edits are approved as
 * they are. No answer at all (input ended) denies.
 */
export async function askApproval({ request, workbench, prompter, signal, now = Date.now }: AskApprovalOptions): Promise<void> {
  let draft = `${JSON.stringify(request.args, null, 2)}\n`;
  /** Edited arguments shown as a diff and not yet approved: what "approve" now approves. */
  let edited: Record<string, unknown> | null = null;
  const previewed = previewedTools.has(request.tool);
  const showPreview = async (args: Record<string, unknown> | undefined, limit: number): Promise<boolean> => {
    try {
      printLines(prompter, previewLines(await workbench.request('session:approval-preview', { requestId: request.requestId, ...(args ? { args } : {}) }), limit));
      return true;
    } catch (error) {
      if (!signal.aborted) prompter.print(`  ${messageOf(error)}`);
      return false;
    }
  };
  prompter.print(approvalHeadline(request, now()));
  if (previewed) await showPreview(undefined, shownDiffLines);
  for (;;) {
    const input = await prompter.ask(approvalMenu(request), signal);
    if (signal.aborted) return;
    if (input === null) {
      prompter.print('  No answer (end of input): denied.');
      await tryAnswer({ decision: 'deny' });
      return;
    }
    const parsed = parseApprovalAnswer(input, request);
    if (!parsed.ok) {
      prompter.print(`  ${parsed.message}`);
      continue;
    }
    const withEdits = edited ? { args: edited } : {};
    switch (parsed.choice) {
      case 'view':
        prompter.print(approvalDetails(edited ? { ...request, args: edited } : request));
        if (previewed) await showPreview(edited ?? undefined, Number.POSITIVE_INFINITY);
        continue;
      case 'deny':
        await tryAnswer({ decision: 'deny' });
        return;
      case 'approve':
        await tryAnswer({ decision: 'approve', ...withEdits });
        return;
      case 'request':
        if (await tryAnswer({ decision: 'approve', allowForRequest: true, ...withEdits })) return;
        continue;
      case 'always':
        if (await tryAnswer({ decision: 'approve', alwaysAllow: true, ...withEdits })) return;
        continue;
      case 'edit': {
        const edit = await editArguments(prompter, draft);
        if (signal.aborted) return;
        if (edit.text !== null) draft = edit.text;
        if (edit.args === null) continue;
        const args = edit.args;
        if (!previewed) {
          if (await tryAnswer({ decision: 'approve', args })) return;
          continue;
        }
        if (await showPreview(args, shownDiffLines)) {
          edited = args;
          prompter.print('  With your edits, approving does what is shown above.');
        }
        continue;
      }
    }
  }

  /** Gives the engine the answer; false (its reason printed) when it refuses it: an invalid edit, "always allow" for a complex command. */
  async function tryAnswer(answer: Omit<ParsedPayload<'session:approve'>, 'requestId'>): Promise<boolean> {
    try {
      const { decision } = await workbench.request('session:approve', { requestId: request.requestId, ...answer });
      if (decision === 'edited') prompter.print('  Approved with your edits.');
      return true;
    } catch (error) {
      if (signal.aborted) return true;
      prompter.print(`  ${messageOf(error)}`);
      return false;
    }
  }
}

function printLines(prompter: Prompter, lines: readonly StyledLine[]): void {
  if (lines.length === 0) return;
  if (prompter.printStyled) prompter.printStyled(lines);
  else prompter.print(plainText(lines));
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
