import { randomUUID } from 'node:crypto';
import type { Message, Phase, RunStatus } from '../contract/index.js';
import { ToolModeState } from '../agent/toolMode.js';
import { createLlmClient, type LlmClientOptions } from '../llm/openaiClient.js';
import type { LlmSettings } from '../llm/llmTypes.js';
import { childEnvironment } from '../process/childEnvironment.js';
import { clearRpiState } from '../rpi/rpiState.js';
import { readRunRecord, writeRunRecord, type RunRecord } from '../rpi/runRecord.js';
import { defaultRpiLimits, runRpi, type RpiLimits, type RpiOutcome } from '../rpi/runRpi.js';
import type { ConversationStore } from '../store/conversation.js';
import type { ToolLog } from '../store/toolLog.js';
import type { Workspace } from '../workspace/workspace.js';
import type { EventBus } from './eventBus.js';

/** How a workbench reaches its model and runs its loops; hosts pass the settings, tests narrow the limits. */
export interface RunOptions {
  /** The model settings, read afresh before each run. Without it every run is refused. */
  llmSettings?: () => Promise<LlmSettings>;
  limits?: Partial<RpiLimits>;
  /** Stream watchdog and retries of the model client. */
  llmClient?: Pick<LlmClientOptions, 'idleTimeoutMs' | 'maxRetries' | 'streamRetries'>;
  /** The environment commands inherit, secrets removed; the engine's own by default. */
  env?: Readonly<Record<string, string | undefined>>;
}

export interface RunResult {
  runId: string;
  status: RunStatus;
  /** The phase the run stopped in, when it did not finish. */
  phase?: Phase;
  error?: string;
  summary?: string;
}

export interface StartedRun {
  /** The user message the run answers. */
  messageId: string;
  runId: string;
  /** Settles when the run has stopped and `run-finished` was emitted; never rejects. */
  finished: Promise<RunResult>;
}

/** A refusal the caller can show as is: a run is active, nothing to resume, no model configured. */
export class RunRefusedError extends Error {
  override name = 'RunRefusedError';
}

interface ActiveRun {
  controller: AbortController;
  finished: Promise<RunResult>;
}

interface RunControllerDeps {
  stateDir: string;
  workspace: Workspace;
  bus: EventBus;
  conversation: ConversationStore;
  toolLog: ToolLog;
  options: RunOptions;
}

/** Starts, resumes and cancels runs of one workbench, one at a time. */
export class RunController {
  private active: ActiveRun | null = null;
  /** Set while a send or resume is between its checks and its start, so a second one cannot slip in. */
  private starting = false;

  constructor(private readonly deps: RunControllerDeps) {}

  get running(): boolean {
    return this.active !== null || this.starting;
  }

  /** Appends the user's message, forgets the previous run's research and plan, and starts a run. */
  async send(prompt: string): Promise<StartedRun> {
    const text = prompt.trim();
    if (!text) throw new RunRefusedError('The message is empty: type a request first.');
    return this.start(async () => {
      const message: Message = { id: `m-${randomUUID()}`, role: 'user', text, ts: Date.now() };
      await this.deps.conversation.append(message);
      this.deps.bus.emit({ type: 'message-added', runId: null, message });
      await clearRpiState(this.deps.stateDir);
      const record = { messageId: message.id, request: text, startedAt: message.ts };
      await writeRunRecord(this.deps.stateDir, record);
      return record;
    });
  }

  /** Goes on with the request whose run stopped (cancel, crash, failure) at the first pending step. */
  async resume(): Promise<StartedRun> {
    return this.start(async () => {
      const { messages } = await this.deps.conversation.load();
      const last = messages.at(-1);
      if (!last) throw new RunRefusedError('Nothing to resume: this folder has no request yet.');
      if (last.role !== 'user') throw new RunRefusedError('Nothing to resume: the last request was answered. Send a new message instead.');
      const record = await readRunRecord(this.deps.stateDir);
      return record?.messageId === last.id ? record : { messageId: last.id, request: last.text, startedAt: last.ts };
    });
  }

  /** Stops the active run as soon as possible; resolves once it has stopped. False when none was running. */
  async cancel(): Promise<boolean> {
    const active = this.active;
    if (!active) return false;
    active.controller.abort();
    await active.finished;
    return true;
  }

  private async start(prepare: () => Promise<RunRecord>): Promise<StartedRun> {
    if (this.running) throw new RunRefusedError('A run is already in progress in this folder: wait for it to finish, or cancel it first.');
    this.starting = true;
    try {
      const settings = await this.settings();
      const record = await prepare();
      const runId = `run-${randomUUID()}`;
      const controller = new AbortController();
      const finished = this.execute(runId, record, settings, controller.signal);
      this.active = { controller, finished };
      return { messageId: record.messageId, runId, finished };
    } finally {
      this.starting = false;
    }
  }

  private async settings(): Promise<LlmSettings> {
    const settings = await this.deps.options.llmSettings?.();
    if (!settings) throw new RunRefusedError('No model is configured: set the model server and model in Settings.');
    if (!settings.model.trim()) throw new RunRefusedError('No model is chosen: set the model name in Settings.');
    return settings;
  }

  private async execute(runId: string, record: RunRecord, settings: LlmSettings, signal: AbortSignal): Promise<RunResult> {
    const { bus, stateDir, workspace, toolLog, conversation, options } = this.deps;
    bus.emit({ type: 'run-started', runId, messageId: record.messageId });
    let result: RunResult;
    try {
      const outcome = await runRpi({
        runId,
        stateDir,
        request: record.request,
        startedAt: record.startedAt,
        llm: createLlmClient({ baseUrl: settings.baseUrl, apiKey: settings.apiKey, model: settings.model, ...options.llmClient }),
        toolMode: new ToolModeState(settings.toolMode),
        contextWindow: settings.contextWindow,
        toolContext: {
          workspace,
          recall: (id) => toolLog.recall(id),
          childEnv: childEnvironment(options.env ?? process.env, settings.apiKey ? [settings.apiKey] : []),
          log: () => {},
        },
        toolLog,
        limits: { ...defaultRpiLimits, ...options.limits },
        emit: (event) => bus.emit(event),
        saveSummary: async (text) => {
          const message: Message = { id: `m-${randomUUID()}`, role: 'assistant', text, ts: Date.now() };
          await conversation.append(message);
          bus.emit({ type: 'message-added', runId, message });
        },
        signal,
      });
      result = resultOf(runId, outcome);
    } catch (error) {
      // Only the engine itself failing gets here (a disk error, a bug): the run ends, the state stays.
      result = { runId, status: 'failed', error: `The run stopped on an internal error: ${error instanceof Error ? error.message : String(error)}` };
    }
    // Idle before run-finished goes out, so a snapshot taken on that event says the run is over.
    this.active = null;
    bus.emit({
      type: 'run-finished',
      runId,
      status: result.status,
      ...(result.error ? { error: result.error } : {}),
      ...(result.phase ? { phase: result.phase } : {}),
    });
    return result;
  }
}

function resultOf(runId: string, outcome: RpiOutcome): RunResult {
  switch (outcome.status) {
    case 'done':
      return { runId, status: 'done', summary: outcome.summary };
    case 'cancelled':
      return { runId, status: 'cancelled', phase: outcome.phase, error: 'Cancelled by the user. Resume to go on from the step that was interrupted.' };
    case 'failed':
      return { runId, status: 'failed', phase: outcome.phase, error: outcome.error };
  }
}
