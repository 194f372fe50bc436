import type { ApprovalSettings } from '../contract/index.js';
import type { AllowedCommand } from '../settings/allowedCommands.js';
import type { GuardOutcome, ToolGuard } from '../tools/executeToolCall.js';
import type { Tool } from '../tools/tool.js';
import type { Workspace } from '../workspace/workspace.js';
import type { ApprovalBroker } from './approvalBroker.js';
import type { RequestScope } from './requestAllowances.js';
import { allowListable, matchesAllowList, parseSimpleCommand } from './commandAllowList.js';
import { changedDefinitionsReason, definitionHashes } from './commandBinding.js';
import { gitConfigPlaces } from './gitHooksFolders.js';
import { protectedPathReason } from './protectedPaths.js';

export interface ToolGuardDeps {
  runId: string;
  workspace: Workspace;
  broker: ApprovalBroker;
  settings: ApprovalSettings;
  /** The folder's "always allow" commands, read at each call so one added during the run counts. */
  allowedCommands: () => Promise<AllowedCommand[]>;
  /** Snapshots the workspace before a change, so undo can restore it; throws when it cannot. */
  checkpoint: (tool: Tool) => Promise<void>;
  /** What the user allowed for the rest of this request; "allow for the rest of this request" is offered only with it. */
  requestScope?: RequestScope;
}

interface Target {
  rel: string;
  real: string;
}

/**
 * Approval, then a checkpoint, before every tool that changes the folder. Reads pass untouched. A path
 * the workspace refuses needs no approval: the tool itself refuses it, and nothing changes.
 */
export function toolGuard(deps: ToolGuardDeps): ToolGuard {
  return async (tool, args, signal, origin): Promise<GuardOutcome> => {
    if (!tool.mutates) return { proceed: true, args };
    const targets = await targetsOf(deps.workspace, tool, args);
    if (targets === null) return { proceed: true, args };
    const protectedReason = await protectedReasonOf(deps, targets);
    const ask = protectedReason ?? (deps.requestScope?.allows(tool, args) ? null : await askReason(deps, tool, args, targets));
    const scope = protectedReason === null ? deps.requestScope : undefined;
    let approved = args;
    if (ask !== null) {
      const command = tool.name === 'run_command' && typeof args['command'] === 'string' ? args['command'] : undefined;
      const authorization = await deps.broker.request(
        {
          runId: deps.runId,
          tool,
          args,
          ...(targets[0] ? { path: targets.map((target) => target.real).join(' → ') } : {}),
          reason: origin === undefined ? ask : `${origin}; ${ask}`,
          ...(command !== undefined && allowListable(command).ok
            ? { alwaysAllow: (approvedArgs: Record<string, unknown>) => boundCommand(deps.workspace, approvedArgs) }
            : {}),
          ...(scope ? { allowForRequest: (approvedArgs: Record<string, unknown>) => scope.allow(tool, approvedArgs) } : {}),
        },
        deps.settings.timeoutSeconds * 1000,
        signal,
      );
      if (!('args' in authorization)) {
        const { decision } = authorization;
        return { proceed: false, refused: decision, result: decision === 'denied' ? deniedText(tool) : expiredText(tool, deps.settings.timeoutSeconds) };
      }
      approved = authorization.args;
    }
    await deps.checkpoint(tool);
    return { proceed: true, args: approved };
  };
}

/** Why a target always asks, whatever the policy and the allowances say; null when none is protected. */
async function protectedReasonOf(deps: ToolGuardDeps, targets: readonly Target[]): Promise<string | null> {
  const { hookFolders, includedConfigs } = await gitConfigPlaces(deps.workspace.root);
  for (const target of targets) {
    const reason = protectedPathReason(target.rel, hookFolders, includedConfigs);
    if (reason !== null) return `${target.rel}: ${reason}, so changes to it always need your approval`;
  }
  return null;
}

/** Why the user must be asked, or null when the policy lets the call run. */
async function askReason(deps: ToolGuardDeps, tool: Tool, args: Record<string, unknown>, targets: readonly Target[]): Promise<string | null> {
  if (tool.name !== 'run_command') return deps.settings.files === 'auto' ? null : 'file changes need your approval';
  const { commands } = deps.settings;
  if (commands === 'auto') return null;
  if (commands === 'allow-list') {
    const command = typeof args['command'] === 'string' ? args['command'] : '';
    const parsed = parseSimpleCommand(command);
    const entry = (await deps.allowedCommands()).find((allowed) => matchesAllowList(command, [allowed.command]));
    if (!parsed.ok || entry === undefined) return 'this command is not on the folder’s allow-list';
    // Allowed only while the files that define what it runs are as they were when the user allowed it.
    return changedDefinitionsReason(entry, await definitionHashes(deps.workspace, parsed.words, targets[0]?.rel ?? ''));
  }
  return 'commands need your approval';
}

/** The approved command as "always allow" keeps it: bound to the files that define what it runs, as they are now. */
async function boundCommand(workspace: Workspace, args: Record<string, unknown>): Promise<AllowedCommand> {
  const command = typeof args['command'] === 'string' ? args['command'] : '';
  const parsed = parseSimpleCommand(command);
  const cwd = await workspace.resolve(typeof args['cwd'] === 'string' ? args['cwd'] : '.', 'read');
  return { command, files: parsed.ok ? await definitionHashes(workspace, parsed.words, cwd.rel) : {} };
}

/** The real paths a mutating call touches; null when the workspace refuses one (the tool will say why). */
async function targetsOf(workspace: Workspace, tool: Tool, args: Record<string, unknown>): Promise<Target[] | null> {
  const named =
    tool.name === 'move_file' ? [args['from'], args['to']] : tool.name === 'run_command' ? [args['cwd'] ?? '.'] : [args['path']];
  const targets: Target[] = [];
  for (const requested of named) {
    if (typeof requested !== 'string') return null;
    try {
      const resolved = await workspace.resolve(requested, tool.name === 'run_command' ? 'read' : 'write', { followLink: tool.name !== 'delete_file' && tool.name !== 'move_file' });
      targets.push({ rel: resolved.rel, real: resolved.real });
    } catch {
      return null;
    }
  }
  return targets;
}

function deniedText(tool: Tool): string {
  return `The user denied this ${tool.name} call; it was not run. Do not repeat it as it was: go on without it, or take another way and explain why.`;
}

function expiredText(tool: Tool, seconds: number): string {
  return `Nobody answered the approval request for this ${tool.name} call within ${waitedFor(seconds)}, so it expired and was not run. Go on without it, or explain what you need and why.`;
}

/** "45 seconds", "1 minute", "10 minutes", "1 minute 30 seconds". */
export function waitedFor(seconds: number): string {
  const unit = (count: number, name: string) => `${count} ${name}${count === 1 ? '' : 's'}`;
  const minutes = Math.floor(seconds / 60);
  const rest = Math.round(seconds % 60);
  if (minutes === 0) return unit(rest, 'second');
  return rest === 0 ? unit(minutes, 'minute') : `${unit(minutes, 'minute')} ${unit(rest, 'second')}`;
}
