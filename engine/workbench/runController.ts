import { randomUUID } from 'node:crypto';
import type { ApprovalSettings, ContextItem, Phase, RunStatus, UnsequencedEvent } from '../contract/index.js';
import { ToolModeState } from '../agent/toolMode.js';
import type { ApprovalBroker } from '../approvals/approvalBroker.js';
import { ApprovedPlans } from '../approvals/approvedPlans.js';
import { RequestAllowances } from '../approvals/requestAllowances.js';
import type { PlanGate } from '../approvals/planGate.js';
import { toolGuard } from '../approvals/toolGuard.js';
import type { McpHub } from '../mcp/mcpHub.js';
import { withMcpGuard } from '../mcp/mcpToolGuard.js';
import type { WorkbenchMcpOptions } from '../mcp/workbenchMcp.js';
import type { ToolGuard } from '../tools/executeToolCall.js';
import type { CheckpointStore } from '../checkpoints/checkpointStore.js';
import { discoverContextWindow } from '../llm/contextWindow/discoverContextWindow.js';
import { createLlmClient, type LlmClientOptions } from '../llm/openaiClient.js';
import type { LlmSettings } from '../llm/llmTypes.js';
import { childEnvironment } from '../secrets/childEnvironment.js';
import { hostEnvironment } from '../secrets/processCredentials.js';
import { knownSecrets, secretMask } from '../secrets/secretMask.js';
import type { RunRecord } from '../rpi/runRecord.js';
import { defaultRpiLimits, runRpi, type RpiLimits, type RpiOutcome } from '../rpi/runRpi.js';
import type { AllowedCommand } from '../settings/allowedCommands.js';
import type { ConversationStore } from '../store/conversation.js';
import type { ToolLog } from '../store/toolLog.js';
import type { Workspace } from '../workspace/workspace.js';
import { discardStoppedRun } from './discardRun.js';
import type { EventBus } from './eventBus.js';
import { newMessage } from './newMessage.js';
import { attachedItems, prepareNewRequest, prepareResume } from './prepareRequest.js';
import { prepareRetry } from './retryFailed.js';
import { previewRewind, rewind, type RewindDeps } from './rewind.js';
import type { RunEventLog } from './runEventLog.js';
import { RunRefusedError } from './runRefusedError.js';

export { RunRefusedError };

/** How a workbench reaches its model and runs its loops; hosts pass the settings, tests narrow the limits. */
export interface RunOptions {
  /** The model settings, read afresh before each run. Without it every run is refused. */
  llmSettings?: () => Promise<LlmSettings>;
  limits?: Partial<RpiLimits>;
  /** Stream watchdog and retries of the model client. */
  llmClient?: Pick<LlmClientOptions, 'firstByteTimeoutMs' | 'idleTimeoutMs' | 'queueLimitMs' | 'maxRetries' | 'retryBaseDelayMs'>;
  /** The host's environment, credentials included (they are removed before commands inherit it); hostEnvironment() by default. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Approval policies, timeout and the plan review switch, read afresh before each run; every change asks when absent. */
  approvals?: () => Promise<ApprovalSettings>;
  /** Where "always allow" commands are kept, per folder, in the user's config; in memory when absent. */
  allowedCommands?: AllowedCommandStore;
  /** The user's MCP servers: started when the folder opens, their tools offered by phase; none when absent. */
  mcp?: WorkbenchMcpOptions;
}

const busy = 'A run is already in progress in this folder: wait for it to finish, or cancel it first.';
const busyForHistory = 'A run is in progress in this folder: cancel it or wait for it to finish before going back in the history.';
const busyForDiscard = 'A run is in progress in this folder: cancel it first, then discard it.';

export const askEverything: ApprovalSettings = { files: 'ask', commands: 'ask', timeoutSeconds: 600, reviewPlan: false };

export interface RunResult {
  runId: string;
  status: RunStatus;
  /** The phase the run stopped in, when it did not finish. */
  phase?: Phase;
  error?: string;
  summary?: string;
}

export interface SendOptions {
  /** Files, folders and notes attached to the request (folder-relative paths), stored with the message. */
  context?: readonly ContextItem[];
}

export interface StartedRun {
  /** The user message the run answers. */
  messageId: string;
  runId: string;
  /** Settles when the run has stopped and `run-finished` was emitted; never rejects. */
  finished: Promise<RunResult>;
}


interface Execution {
  runId: string;
  record: RunRecord;
  settings: LlmSettings;
  approvals: ApprovalSettings;
  signal: AbortSignal;
}

interface ActiveRun {
  controller: AbortController;
  finished: Promise<RunResult>;
}

export interface RunControllerDeps {
  stateDir: string;
  workspace: Workspace;
  bus: EventBus;
  conversation: ConversationStore;
  toolLog: ToolLog;
  checkpoints: CheckpointStore;
  broker: ApprovalBroker;
  planGate: PlanGate;
  allowedCommands: AllowedCommandStore;
  /** The recorded events of the latest run, forgotten when its request is undone or discarded. */
  runEvents: Pick<RunEventLog, 'clear'>;
  /** Waits for the run's files to be counted for the last time (changes-updated), so that comes before run-finished. */
  settleChanges?: () => Promise<void>;
  /** The folder's MCP servers, when the host configured any. */
  mcp?: McpHub | null;
  options: RunOptions;
}

export interface AllowedCommandStore {
  list(folder: string): Promise<AllowedCommand[]>;
  /** Adds the command, or rebinds it to the files given when it is already there. */
  add(folder: string, entry: AllowedCommand): Promise<void>;
}

/** Starts, resumes and cancels runs of one workbench, one at a time. */
export class RunController {
  private active: ActiveRun | null = null;
  /** Set while a send or resume is between its checks and its start, so a second one cannot slip in. */
  private starting = false;
  /** Plans approved at the review gate by the user of this process (never read from the folder). */
  private readonly approvedPlans = new ApprovedPlans();
  /** "Allow for the rest of this request" answers, by request. */
  private readonly requestAllowances = new RequestAllowances();

  constructor(private readonly deps: RunControllerDeps) {}

  get running(): boolean {
    return this.active !== null || this.starting;
  }

  /**
   * Appends the user's message (with the items attached to it), forgets the previous run's research and
   * plan, and starts a run.
   */
  async send(prompt: string, options: SendOptions = {}): Promise<StartedRun> {
    const text = prompt.trim();
    if (!text) throw new RunRefusedError('The message is empty: type a request first.');
    const context = attachedItems(options.context);
    return this.exclusive(() => this.launch(() => prepareNewRequest(this.deps, text, context)), busy);
  }

  /** Restores the folder and the conversation to before the message (see rewind), refused during a run. */
  async undo(messageId: string): Promise<string[]> {
    const { restored } = await this.exclusive(() => rewind(this.rewindDeps(), messageId), busyForHistory);
    return restored.filter((change) => change.kind !== 'folder').map((change) => change.path);
  }

  /** What undo(messageId) would restore, for a confirmation. */
  previewUndo(messageId: string) {
    return previewRewind(this.rewindDeps(), messageId);
  }

  /** Undoes to before the request (the message itself, or the one a summary answers) and sends it again. */
  regenerate(messageId: string): Promise<StartedRun> {
    return this.exclusive(async () => {
      const { message } = await rewind(this.rewindDeps(), messageId);
      return this.launch(() => prepareNewRequest(this.deps, message.text, message.context ?? []));
    }, busyForHistory);
  }

  /** Runs a change the user asked for outside a run (a file revert), refused while a run is active and holding off any start until done. */
  whileIdle<T>(task: () => Promise<T>): Promise<T> {
    return this.exclusive(task, busyForHistory);
  }

  /** Answers the stopped request with where it stopped and forgets its research and plan; the files stay. */
  discard(): Promise<boolean> {
    return this.exclusive(() => discardStoppedRun(this.rewindDeps()), busyForDiscard);
  }

  private rewindDeps(): RewindDeps {
    const { stateDir, conversation, checkpoints, bus, runEvents } = this.deps;
    return { stateDir, conversation, checkpoints, emit: (event: UnsequencedEvent) => void bus.emit(event), forgetRun: () => runEvents.clear() };
  }

  /** Goes on with the request whose run stopped (cancel, crash, failure) at the first pending step. */
  async resume(): Promise<StartedRun> {
    return this.exclusive(() => this.launch(() => prepareResume(this.deps)), busy);
  }

  /**
   * Tries the failed steps of the latest request again: each `[!]` item goes back to pending (done items
   * are never touched), its earlier failure reason kept for its next attempt, the request's summary is
   * taken back (a new one follows), and the run resumes from disk. Works for a run of an earlier session.
   */
  async retryFailed(): Promise<StartedRun> {
    return this.exclusive(() => this.launch(() => prepareRetry(this.deps)), busy);
  }

  /** Stops the active run as soon as possible; resolves once it has stopped. False when none was running. */
  async cancel(): Promise<boolean> {
    const active = this.active;
    if (!active) return false;
    active.controller.abort();
    await active.finished;
    return true;
  }

  /** Runs `task` while no run is active, holding off any other start until it is done. */
  private async exclusive<T>(task: () => Promise<T>, refusal: string): Promise<T> {
    if (this.running) throw new RunRefusedError(refusal);
    this.starting = true;
    try {
      return await task();
    } finally {
      this.starting = false;
    }
  }

  /** Checks the settings, prepares the run's record (nothing is written when the settings are missing), starts it. */
  private async launch(prepare: () => Promise<RunRecord>): Promise<StartedRun> {
    const settings = await this.settings();
    const approvals = (await this.deps.options.approvals?.()) ?? askEverything;
    const record = await prepare();
    const runId = `run-${randomUUID()}`;
    const controller = new AbortController();
    const finished = this.execute({ runId, record, settings, approvals, signal: controller.signal });
    this.active = { controller, finished };
    return { messageId: record.messageId, runId, finished };
  }

  private async settings(): Promise<LlmSettings> {
    const settings = await this.deps.options.llmSettings?.();
    if (!settings) throw new RunRefusedError('No model is configured: set the model server and model in Settings.');
    if (!settings.model.trim()) throw new RunRefusedError('No model is chosen: set the model name in Settings.');
    return settings;
  }

  /**
   * The window set in Settings, else the one the server tells (asked once per run), with a warning when
   * the server silently cuts longer prompts.
   */
  private async contextWindow(runId: string, settings: LlmSettings, signal: AbortSignal): Promise<number> {
    const { baseUrl, apiKey, model, contextWindow: configured } = settings;
    const window = await discoverContextWindow({ baseUrl, apiKey, model, configured, signal });
    this.deps.bus.emit({ type: 'context-window', runId, tokens: window.tokens, source: window.source, detail: window.detail });
    if (window.warning) this.deps.bus.emit({ type: 'warning', runId, message: window.warning });
    return window.tokens;
  }

  /** The run's guard, with MCP tools sent to their own approval (mcpToolGuard.ts) when the folder has MCP servers. */
  private withMcp(runId: string, messageId: string, approvals: ApprovalSettings, guard: ToolGuard): ToolGuard {
    const { mcp, broker, checkpoints } = this.deps;
    if (!mcp) return guard;
    return withMcpGuard(guard, {
      runId,
      broker,
      hub: mcp,
      timeoutSeconds: approvals.timeoutSeconds,
      checkpoint: async (tool) => void (await checkpoints.snapshot({ reason: 'tool', messageId, runId, tool: tool.name })),
      requestScope: this.requestAllowances.for(messageId),
    });
  }

  private async execute({ runId, record, settings, approvals, signal }: Execution): Promise<RunResult> {
    const { bus, stateDir, workspace, toolLog, conversation, options, checkpoints, broker, planGate } = this.deps;
    const { approvedPlans } = this;
    const folder = workspace.root;
    const allowed = this.deps.allowedCommands;
    bus.emit({ type: 'run-started', runId, messageId: record.messageId, startedAt: Date.now() });
    this.deps.mcp?.retryFailed();
    let result: RunResult;
    try {
      const contextWindow = await this.contextWindow(runId, settings, signal);
      const outcome = await runRpi({
        runId,
        stateDir,
        request: record.request,
        ...(record.context ? { contextItems: record.context } : {}),
        startedAt: record.startedAt,
        ...(record.retryReasons ? { retryReasons: record.retryReasons } : {}),
        llm: createLlmClient({
          baseUrl: settings.baseUrl,
          apiKey: settings.apiKey,
          model: settings.model,
          ...(settings.retries === undefined ? {} : { maxRetries: settings.retries }),
          ...options.llmClient,
        }),
        toolMode: new ToolModeState(settings.toolMode),
        contextWindow,
        toolContext: {
          workspace,
          recall: (id) => toolLog.recall(id),
          ...commandSafety(options.env ?? hostEnvironment(), settings.apiKey),
          log: () => {},
        },
        toolLog,
        limits: { ...defaultRpiLimits, ...options.limits },
        emit: (event) => bus.emit(event),
        saveSummary: async (text) => {
          const message = newMessage('assistant', text);
          await conversation.append(message);
          bus.emit({ type: 'message-added', runId, message });
        },
        ...(this.deps.mcp ? { extraTools: this.deps.mcp } : {}),
        guard: this.withMcp(runId, record.messageId, approvals, toolGuard({
          runId,
          workspace,
          broker,
          settings: approvals,
          allowedCommands: () => allowed.list(folder),
          checkpoint: async (tool) => void (await checkpoints.snapshot({ reason: 'tool', messageId: record.messageId, runId, tool: tool.name })),
          requestScope: this.requestAllowances.for(record.messageId),
        })),
        ...(approvals.reviewPlan
          ? {
              planReview: {
                isApproved: (items) => approvedPlans.isApproved(record.messageId, items),
                review: (items, planText) => planGate.review(runId, items, planText, signal),
                approved: (items) => approvedPlans.approve(record.messageId, items),
                extended: (before, after) => approvedPlans.extend(record.messageId, before, after),
              },
            }
          : {}),
        signal,
      });
      result = resultOf(runId, outcome);
    } catch (error) {
      // Only the engine itself failing gets here (a disk error, a bug): the run ends, the state stays.
      result = { runId, status: 'failed', error: `The run stopped on an internal error: ${error instanceof Error ? error.message : String(error)}` };
    }
    await this.deps.settleChanges?.().catch(() => undefined);
    // Idle before run-finished goes out, so a snapshot taken on that event says the run is over.
    this.active = null;
    bus.emit({
      type: 'run-finished',
      runId,
      status: result.status,
      ...(result.error ? { error: result.error } : {}),
      ...(result.phase ? { phase: result.phase } : {}),
      finishedAt: Date.now(),
    });
    return result;
  }
}

function resultOf(runId: string, outcome: RpiOutcome): RunResult {
  switch (outcome.status) {
    case 'done':
      return { runId, status: 'done', summary: outcome.summary };
    case 'cancelled':
      return { runId, status: 'cancelled', phase: outcome.phase, error: outcome.reason ?? 'Cancelled by the user. Resume to go on from the step that was interrupted.' };
    case 'failed':
      return { runId, status: 'failed', phase: outcome.phase, error: outcome.error };
  }
}

/** "Always allow" commands when the host keeps none in the user's config: they last as long as the workbench. */
export function memoryAllowList(): AllowedCommandStore {
  const byFolder = new Map<string, AllowedCommand[]>();
  return {
    list: async (folder) => byFolder.get(folder) ?? [],
    add: async (folder, entry) => {
      const others = (byFolder.get(folder) ?? []).filter((current) => current.command !== entry.command);
      byFolder.set(folder, [...others, entry]);
    },
  };
}

/** What commands inherit (no credentials) and the mask that hides every secret the engine knows from results. */
function commandSafety(env: Readonly<Record<string, string | undefined>>, apiKey: string | null) {
  const secrets = knownSecrets(env, apiKey);
  return { childEnv: childEnvironment(env, secrets.map((secret) => secret.value)), maskSecrets: secretMask(secrets) };
}
