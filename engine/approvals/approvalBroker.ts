import { randomUUID } from 'node:crypto';
import type { ApprovalRequestView, UnsequencedEvent } from '../contract/index.js';
import type { AllowedCommand } from '../settings/allowedCommands.js';
import type { Tool } from '../tools/tool.js';
import { allowListable } from './commandAllowList.js';
import { WaitingAnswers } from './waitingAnswers.js';

/** What the user asked for, as it arrives from a host. */
export interface ApprovalAnswer {
  decision: 'approve' | 'deny';
  /** Edited arguments: checked against the tool's schema; invalid ones are refused and the request stays open. */
  args?: Record<string, unknown>;
  /** Remember this exact command for this folder (run_command only, and only when it was offered). */
  alwaysAllow?: boolean;
  /** Allow such actions without asking for the rest of this request (only when it was offered). */
  allowForRequest?: boolean;
}

export type Authorization =
  | { decision: 'approved' | 'edited'; args: Record<string, unknown> }
  | { decision: 'denied' | 'expired' };

export interface ApprovalRequest {
  runId: string;
  tool: Tool;
  args: Record<string, unknown>;
  /** The real path the action touches, shown to the user. */
  path?: string;
  reason: string;
  /**
   * Set only when "always allow" may be offered (a run_command whose command is allow-listable): binds the
   * approved arguments' command to the files that define what it runs, as they are when the user answers.
   */
  alwaysAllow?: (args: Record<string, unknown>) => Promise<AllowedCommand>;
  /** Set only when "always allow" may be offered for a tool rather than a command (an MCP tool): remembers it. */
  rememberTool?: () => Promise<void>;
  /** Set only when "allow for the rest of this request" may be offered: lets such actions through until the request ends. */
  allowForRequest?: (args: Record<string, unknown>) => void;
}

interface Pending {
  request: ApprovalRequest;
  view: ApprovalRequestView;
}

export interface ApprovalBrokerDeps {
  emit: (event: UnsequencedEvent) => void;
  /** Stores an "always allow" command for this folder, in the user's config. */
  rememberCommand: (entry: AllowedCommand) => Promise<void>;
}

/** Thrown back to the host that answered: unknown or already answered request, invalid edit. */
export class ApprovalAnswerError extends Error {
  override name = 'ApprovalAnswerError';
}

/**
 * Holds the actions waiting for the user. Each request is answered once — approve, deny, or approve with
 * edited arguments — or expires after its timeout, or is denied when the run is cancelled. What it
 * announced stays available for a reloaded page through `pending()`.
 */
export class ApprovalBroker {
  private readonly waiting = new WaitingAnswers<Pending, Authorization>();

  constructor(private readonly deps: ApprovalBrokerDeps) {}

  /** Asks the user; resolves with their answer, 'expired' after `timeoutMs`, 'denied' when `signal` aborts. */
  request(request: ApprovalRequest, timeoutMs: number, signal: AbortSignal): Promise<Authorization> {
    if (signal.aborted) return Promise.resolve({ decision: 'denied' });
    const requestId = `approval-${randomUUID()}`;
    const view: ApprovalRequestView = {
      requestId,
      tool: request.tool.name,
      args: request.args,
      ...(request.path ? { path: request.path } : {}),
      reason: request.reason,
      canAlwaysAllow: request.alwaysAllow !== undefined || request.rememberTool !== undefined,
      ...(request.allowForRequest ? { canAllowForRequest: true } : {}),
      expiresAt: Date.now() + timeoutMs,
    };
    return this.waiting.wait(requestId, { request, view }, {
      timeoutMs,
      signal,
      expired: { decision: 'expired' },
      withdrawn: { decision: 'denied' },
      announce: () => this.deps.emit({ type: 'approval-requested', runId: request.runId, ...view }),
      settled: (authorization) => {
        const edited = authorization.decision === 'edited' ? { args: authorization.args } : {};
        this.deps.emit({ type: 'approval-resolved', runId: request.runId, requestId, decision: authorization.decision, ...edited });
      },
    });
  }

  /** Answers a request; throws ApprovalAnswerError (the request stays as it was) when it cannot. */
  async answer(requestId: string, answer: ApprovalAnswer): Promise<Authorization['decision']> {
    const pending = this.waiting.entry(requestId);
    if (!pending) {
      const earlier = this.waiting.earlier(requestId)?.decision;
      throw new ApprovalAnswerError(
        earlier ? `This request was already ${earlier === 'edited' ? 'approved with edits' : earlier}; it cannot be answered again.` : `There is no approval request "${requestId}".`,
      );
    }
    if (answer.decision === 'deny') {
      this.waiting.settle(requestId, { decision: 'denied' });
      return 'denied';
    }
    const edited = answer.args === undefined ? null : this.checkedEdit(pending.request.tool, answer.args);
    if (answer.alwaysAllow && pending.request.rememberTool) {
      await pending.request.rememberTool().catch((error: unknown) => {
        throw new ApprovalAnswerError(`"Always allow" could not be saved: ${error instanceof Error ? error.message : String(error)}`);
      });
    } else if (answer.alwaysAllow) {
      const approvedArgs = edited ?? pending.request.args;
      const command = approvedArgs['command'];
      const listable = typeof command === 'string' ? allowListable(command) : null;
      if (pending.request.alwaysAllow === undefined || !listable?.ok) {
        const why = listable && !listable.ok ? ` ${listable.reason}` : '';
        throw new ApprovalAnswerError(`"Always allow" is only offered for simple commands; approve this one once instead.${why}`);
      }
      const entry = await pending.request.alwaysAllow(approvedArgs).catch((error: unknown) => {
        throw new ApprovalAnswerError(`"Always allow" could not look at what this command runs: ${error instanceof Error ? error.message : String(error)}`);
      });
      await this.deps.rememberCommand(entry);
    }
    if (answer.allowForRequest) {
      if (pending.request.allowForRequest === undefined) throw new ApprovalAnswerError('"Allow for the rest of this request" is not offered for this action; approve it once instead.');
      pending.request.allowForRequest(edited ?? pending.request.args);
    }
    const authorization: Authorization = edited ? { decision: 'edited', args: edited } : { decision: 'approved', args: pending.request.args };
    this.waiting.settle(requestId, authorization);
    return authorization.decision;
  }

  /** The tool and arguments of a request still waiting for its answer (for a preview of what it would do), or null. */
  requestOf(requestId: string): Pick<ApprovalRequest, 'tool' | 'args'> | null {
    const pending = this.waiting.entry(requestId);
    return pending ? { tool: pending.request.tool, args: pending.request.args } : null;
  }

  /** The requests waiting now, as `approval-requested` announced them. */
  pending(): ApprovalRequestView[] {
    return this.waiting.entries().map((pending) => pending.view);
  }

  private checkedEdit(tool: Tool, args: Record<string, unknown>): Record<string, unknown> {
    const problems = editProblems(tool, args);
    if (problems !== null) throw new ApprovalAnswerError(problems);
    return args;
  }
}

/** Why edited arguments do not fit the tool, in one sentence; null when they do. */
export function editProblems(tool: Tool, args: Record<string, unknown>): string | null {
  const checked = tool.parameters.safeParse(args);
  if (checked.success) return null;
  const problems = checked.error.issues.map((issue) => `${issue.path.join('.') || 'arguments'}: ${issue.message}`).join('; ');
  return `The edited arguments do not fit ${tool.name}: ${problems}.`;
}
