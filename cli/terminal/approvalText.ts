import { alwaysAllowWords, requestScopeWords, type ApprovalRequestView } from '../../engine/contract/index.js';
import { describeCall } from './toolLines.js';
import { formatElapsed } from './units.js';
import { terminalJson, visibleLine } from './visibleText.js';

/**
 * The request in one line: what would run, and why it needs the user; nothing in it can leave the line
 * or move the cursor. The command or path is shown whole, never cut: what is approved is exactly what runs.
 */
export function approvalHeadline(request: ApprovalRequestView, now: number): string {
  return `? Approve ${describeCall(request.tool, request.args, Number.POSITIVE_INFINITY)}? ${capitalised(visibleLine(request.reason))} (expires in ${formatElapsed(Math.ceil((request.expiresAt - now) / 1000) * 1000)}).`;
}

/** The choices, "always allow" only where the request offers it. */
export function approvalMenu(request: ApprovalRequestView): string {
  const rest = request.canAllowForRequest ? `  [r]: approve ${requestScopeWords(request.tool)} for the rest of this request` : '';
  return `  [a]pprove${rest}  [d]eny  [e]dit arguments  [v]iew details${request.canAlwaysAllow ? `  al[w]ays allow ${alwaysAllowWords(request.tool)}` : ''} > `;
}

/** Everything the user may want before deciding: the exact arguments, the real path, the reason. */
export function approvalDetails(request: ApprovalRequestView): string {
  const args = terminalJson(request.args, 2).split('\n').map((line) => `    ${line}`);
  return [
    `  tool:      ${visibleLine(request.tool)}`,
    ...(request.path ? [`  real path: ${visibleLine(request.path)}`] : []),
    `  reason:    ${visibleLine(request.reason)}`,
    '  arguments:',
    ...args,
  ].join('\n');
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
