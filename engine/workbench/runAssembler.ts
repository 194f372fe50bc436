import { phaseSchema, type ApprovalSettings, type LearnedContextWindow, type Phase, type RunStatus, type RunUsage, type UnsequencedEvent } from '../contract/index.js';
import { ToolModeState } from '../agent/toolMode.js';
import type { ApprovalBroker } from '../approvals/approvalBroker.js';
import { ApprovedPlans } from '../approvals/approvedPlans.js';
import { RequestAllowances } from '../approvals/requestAllowances.js';
import type { PlanGate } from '../approvals/planGate.js';
import type { QuestionBroker } from '../approvals/questionBroker.js';
import { toolGuard } from '../approvals/toolGuard.js';
import type { CheckpointStore } from '../checkpoints/checkpointStore.js';
import { discoverContextWindow } from '../llm/contextWindow/discoverContextWindow.js';
import { createLlmClient } from '../llm/openaiClient.js';
import type { LlmClient, LlmSettings, ModelConnection } from '../llm/llmTypes.js';
import { modelCacheKey } from '../llm/cacheHints/modelCacheKey.js';
import { connectionFor, connectionIdentity, connectionKeys } from '../llm/phaseModel.js';
import type { McpHub } from '../mcp/mcpHub.js';
import { withMcpGuard } from '../mcp/mcpToolGuard.js';
import type { RunRecord } from '../rpi/runRecord.js';
import { defaultRpiLimits, type PhaseModel, type RpiOutcome } from '../rpi/rpiRun.js';
import { runRpi } from '../rpi/runRpi.js';
import { UsageRecorder } from '../rpi/usageRecorder.js';
import { childEnvironment } from '../secrets/childEnvironment.js';
import { hostEnvironment } from '../secrets/processCredentials.js';
import { knownSecrets, secretMask, type KnownSecret } from '../secrets/secretMask.js';
import type { ConversationScope } from '../conversations/conversations.js';
import { toolLogFile, type ToolLog } from '../store/toolLog.js';
import { askUser } from '../tools/askUser.js';
import type { ToolGuard } from '../tools/executeToolCall.js';
import type { Workspace } from '../workspace/workspace.js';
import type { EventBus } from './eventBus.js';
import { newMessage } from './newMessage.js';
import type { AllowedCommandStore, FolderCheckStore, RunOptions } from './runOptions.js';

/** How a run ended, for an in-process caller that waits for it (the CLI, tests). */
export interface RunResult {
  runId: string;
  status: RunStatus;
  /** The phase the run stopped in, when it did not finish. */
  phase?: Phase;
  error?: string;
  summary?: string;
}

/** One run to carry out: its id, the record it starts from, and the settings read as it started. */
export interface RunExecution {
  runId: string;
  record: RunRecord;
  settings: LlmSettings;
  approvals: ApprovalSettings;
  signal: AbortSignal;
  /** The conversation the request is in: its rpi/ and history; every event of the run names it. */
  conversation: ConversationScope;
}

export interface RunAssemblerDeps {
  /** The held `.workbench/`, where the shared tool log is. */
  stateDir: string;
  workspace: Workspace;
  bus: EventBus;
  toolLog: ToolLog;
  checkpoints: CheckpointStore;
  broker: ApprovalBroker;
  planGate: PlanGate;
  /** Where the model's questions (ask_user) wait for the user's answer. */
  questions: QuestionBroker;
  allowedCommands: AllowedCommandStore;
  folderChecks: FolderCheckStore;
  /** Waits for the run's files to be counted for the last time (changes-updated), so that comes before run-finished. */
  settleChanges?: () => Promise<void>;
  /** The folder's MCP servers, when the host configured any. */
  mcp?: McpHub | null;
  options: RunOptions;
}

/**
 * Assembles a run from the workbench's parts — the model client, the context window, the tools and their
 * guards, the plan review — and carries it out from `run-started` to `run-finished`. Remembers, across the
 * runs of this workbench, the plans its user approved and the "allow for this request" answers.
 */
export class RunAssembler {
  /** Plans approved at the review gate by the user of this process (never read from the folder). */
  private readonly approvedPlans = new ApprovedPlans();
  /** "Allow for the rest of this request" answers, by request. */
  private readonly requestAllowances = new RequestAllowances();
  /** The active run's usage, kept in rpi/usage.jsonl as it is counted. */
  private usage: UsageRecorder | null = null;

  constructor(private readonly deps: RunAssemblerDeps) {}

  /** The active run's usage per step, its request's earlier runs included; null between runs. */
  liveUsage(): RunUsage | null {
    return this.usage?.current() ?? null;
  }

  /**
   * Runs to the end; never rejects (an internal error is a failed run). `stopped` is called once the run
   * is over and before `run-finished` goes out, so a snapshot taken on that event says no run is active.
   */
  async execute({ runId, record, settings, approvals, signal, conversation }: RunExecution, stopped: () => void): Promise<RunResult> {
    const { bus, stateDir, workspace, toolLog, options, planGate } = this.deps;
    const { approvedPlans } = this;
    const emit = (event: UnsequencedEvent) => bus.emit({ ...event, conversationId: conversation.id });
    emit({ type: 'run-started', runId, messageId: record.messageId, startedAt: Date.now() });
    this.deps.mcp?.retryFailed();
    let result: RunResult;
    try {
      const usage = (this.usage = await UsageRecorder.open({ stateDir: conversation.dir, runId, messageId: record.messageId, emit }));
      const models = await this.phaseModels(runId, settings, signal, emit);
      const outcome = await runRpi({
        runId,
        stateDir: conversation.dir,
        toolLogFile: toolLogFile(stateDir),
        request: record.request,
        ...(record.context ? { contextItems: record.context } : {}),
        startedAt: record.startedAt,
        ...(record.retryReasons ? { retryReasons: record.retryReasons } : {}),
        folderCheck: await this.deps.folderChecks.get(workspace.root),
        llm: models.research.llm,
        contextWindow: models.research.contextWindow,
        phaseModels: models,
        toolMode: new ToolModeState(settings.toolMode),
        toolContext: {
          workspace,
          recall: (id) => toolLog.recall(id),
          ...commandSafety(options.env ?? hostEnvironment(), connectionKeys(settings), this.deps.mcp?.secrets() ?? []),
          log: () => {},
        },
        // Each call is kept with its request, so a resumed run finds the answers the user already gave.
        toolLog: { append: (entry) => toolLog.append({ ...entry, messageId: record.messageId }) },
        questions: {
          ask: (question, askSignal) => this.deps.questions.ask({ runId, ...question }, approvals.timeoutSeconds * 1000, askSignal),
          earlier: () => toolLog.callsOf(askUser.name, record.messageId),
        },
        limits: { ...defaultRpiLimits, ...options.limits },
        emit: (event) => {
          emit(event);
          usage.observe(event);
        },
        saveSummary: async (text) => {
          const message = newMessage('assistant', text);
          await conversation.store.append(message);
          emit({ type: 'message-added', runId, message });
        },
        ...(this.deps.mcp ? { extraTools: this.deps.mcp } : {}),
        guard: this.guard(runId, record.messageId, approvals),
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
    // Every call counted is on disk before the run is said to be over.
    await this.usage?.close();
    this.usage = null;
    stopped();
    emit({
      type: 'run-finished',
      runId,
      status: result.status,
      ...(result.error ? { error: result.error } : {}),
      ...(result.phase ? { phase: result.phase } : {}),
      finishedAt: Date.now(),
    });
    return result;
  }

  /**
   * Each phase's model client and window. Phases on the same model share both: one client, one window
   * learned once per run; each model's own key goes only to its own server.
   */
  private async phaseModels(runId: string, settings: LlmSettings, signal: AbortSignal, emit: (event: UnsequencedEvent) => void): Promise<Record<Phase, PhaseModel>> {
    const byConnection = new Map<string, PhaseModel>();
    const several = new Set(phaseSchema.options.map((phase) => connectionFor(settings, phase).model)).size > 1;
    const models = {} as Record<Phase, PhaseModel>;
    for (const phase of phaseSchema.options) {
      const connection = connectionFor(settings, phase);
      const identity = connectionIdentity(connection);
      let model = byConnection.get(identity);
      if (!model) {
        const window = await this.contextWindow(runId, connection, signal, emit);
        // The first phase's window is told now; another model's when a phase starts on it (runRpi).
        if (byConnection.size === 0) emit({ type: 'context-window', runId, tokens: window.tokens, source: window.source, detail: window.detail, ...(several ? { model: connection.model } : {}) });
        model = { llm: await this.llmClient(settings, connection), contextWindow: window.tokens, learned: { source: window.source, detail: window.detail } };
        byConnection.set(identity, model);
      }
      models[phase] = model;
    }
    return models;
  }

  /**
   * The model's window set in Settings, else the one its server tells (asked once per run), with a warning
   * when the server silently cuts longer prompts.
   */
  private async contextWindow(runId: string, connection: ModelConnection, signal: AbortSignal, emit: (event: UnsequencedEvent) => void): Promise<LearnedContextWindow> {
    const { baseUrl, apiKey, model, contextWindow: configured, contextWindowFrom: configuredFrom } = connection;
    const window = await discoverContextWindow({ baseUrl, apiKey, model, configured, ...(configuredFrom ? { configuredFrom } : {}), signal });
    if (window.warning) emit({ type: 'warning', runId, message: window.warning });
    return window;
  }

  /** A model client: the settings' retries and prompt caching, the model's own price and the cache key for this model. */
  private async llmClient(settings: LlmSettings, connection: ModelConnection): Promise<LlmClient> {
    const promptCaching = settings.promptCaching ?? 'auto';
    const folderKey = promptCaching === 'off' ? null : await this.cacheKey();
    return createLlmClient({
      baseUrl: connection.baseUrl,
      apiKey: connection.apiKey,
      model: connection.model,
      ...(settings.retries === undefined ? {} : { maxRetries: settings.retries }),
      promptCaching,
      cacheKey: folderKey === null ? null : modelCacheKey(folderKey, connection, settings),
      price: connection.price ?? null,
      ...this.deps.options.llmClient,
    });
  }

  /** The folder's prompt cache key; a config directory that cannot be written costs the run its key, not the run. */
  private async cacheKey(): Promise<string | null> {
    const keys = this.deps.options.promptCacheKeys;
    return keys ? keys.keyFor(this.deps.workspace.root).catch(() => null) : null;
  }

  /** The run's guard: approvals by policy, with MCP tools sent to their own approval (mcpToolGuard.ts) when the folder has MCP servers. */
  private guard(runId: string, messageId: string, approvals: ApprovalSettings): ToolGuard {
    const { workspace, broker, checkpoints, allowedCommands, mcp } = this.deps;
    const checkpoint = async (tool: { name: string }) => void (await checkpoints.snapshot({ reason: 'tool', messageId, runId, tool: tool.name }));
    const requestScope = this.requestAllowances.for(messageId);
    const guard = toolGuard({
      runId,
      workspace,
      broker,
      settings: approvals,
      allowedCommands: () => allowedCommands.list(workspace.root),
      checkpoint,
      requestScope,
    });
    if (!mcp) return guard;
    return withMcpGuard(guard, { runId, broker, hub: mcp, timeoutSeconds: approvals.timeoutSeconds, checkpoint, requestScope });
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

/**
 * What commands inherit (no credentials) and the mask that hides every secret the engine knows from
 * results: every connection's key, and every MCP server's tokens (a file of the folder may hold one too).
 */
function commandSafety(env: Readonly<Record<string, string | undefined>>, apiKeys: readonly string[], mcpSecrets: readonly KnownSecret[]) {
  const secrets = [...knownSecrets(env, apiKeys), ...mcpSecrets];
  return { childEnv: childEnvironment(env, secrets.map((secret) => secret.value)), maskSecrets: secretMask(secrets) };
}
