import type { ApprovalBroker } from '../approvals/approvalBroker.js';
import type { RequestScope } from '../approvals/requestAllowances.js';
import { waitedFor } from '../approvals/toolGuard.js';
import type { GuardOutcome, ToolGuard } from '../tools/executeToolCall.js';
import type { Tool } from '../tools/tool.js';
import type { McpHub } from './mcpHub.js';
import { isMcpTool, type McpTool } from './mcpTool.js';

export interface McpGuardDeps {
  runId: string;
  broker: ApprovalBroker;
  /** How long a request waits for an answer. */
  timeoutSeconds: number;
  /** Where "always allow" answers for MCP tools are looked up and kept. */
  hub: Pick<McpHub, 'isAlwaysAllowed' | 'allowAlways'>;
  /** Snapshots the folder before a tool that may change it, so undo can restore it. */
  checkpoint: (tool: Tool) => Promise<void>;
  requestScope?: RequestScope;
}

/** MCP tools go through their own approval (mcpToolGuard); every other tool through `guard`. */
export function withMcpGuard(guard: ToolGuard, deps: McpGuardDeps): ToolGuard {
  const mcp = mcpToolGuard(deps);
  return (tool, args, signal, origin) => (isMcpTool(tool) ? mcp(tool, args, signal) : guard(tool, args, signal, origin));
}

/**
 * Every MCP call asks, whatever the file and command policies say — read-only ones too: a server is a
 * program of the user's that the workbench's folder checks do not reach. Only "always allow" for that
 * tool (kept in the config dir, bound to the server's definition) or "allow for the rest of this request"
 * lets a call through unasked. A tool the server does not mark read-only gets a checkpoint first, as it
 * may change the folder.
 */
export function mcpToolGuard(deps: McpGuardDeps): (tool: McpTool, args: Record<string, unknown>, signal: AbortSignal) => Promise<GuardOutcome> {
  return async (tool, args, signal) => {
    let approved = args;
    if (!deps.hub.isAlwaysAllowed(tool) && !deps.requestScope?.allows(tool, args)) {
      const scope = deps.requestScope;
      const authorization = await deps.broker.request(
        {
          runId: deps.runId,
          tool,
          args,
          reason: reasonOf(tool),
          rememberTool: () => deps.hub.allowAlways(tool),
          ...(scope ? { allowForRequest: (approvedArgs: Record<string, unknown>) => scope.allow(tool, approvedArgs) } : {}),
        },
        deps.timeoutSeconds * 1000,
        signal,
      );
      if (!('args' in authorization)) {
        const { decision } = authorization;
        return { proceed: false, refused: decision, result: decision === 'denied' ? deniedText(tool) : expiredText(tool, deps.timeoutSeconds) };
      }
      approved = authorization.args;
    }
    if (tool.mutates) await deps.checkpoint(tool);
    return { proceed: true, args: approved };
  };
}

function reasonOf(tool: McpTool): string {
  const { server, name, readOnly } = tool.info;
  const kind = readOnly ? 'The server marks it read-only.' : 'The server does not mark it read-only, so it may change files or other things.';
  return `"${name}" is a tool of your MCP server "${server}", which runs outside the workbench's folder checks: every call needs your approval unless you always allow the tool. ${kind}`;
}

function deniedText(tool: McpTool): string {
  return `The user denied this call of ${tool.name}; it was not run. Do not repeat it as it was: go on without it, or take another way and explain why.`;
}

function expiredText(tool: McpTool, seconds: number): string {
  return `Nobody answered the approval request for this call of ${tool.name} within ${waitedFor(seconds)}, so it expired and was not run. Go on without it, or explain what you need and why.`;
}
