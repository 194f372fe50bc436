import { randomUUID } from 'node:crypto';
import type { ApprovalSettings, ContextItem, RunUsage, StartedRun, UnsequencedEvent } from '../contract/index.js';
import { RunRefusedError } from '../contract/runRefusedError.js';
import type { LlmSettings } from '../llm/llmTypes.js';
import type { RunRecord } from '../rpi/runRecord.js';
import { discardStoppedRun } from './discardRun.js';
import { attachedItems, prepareNewRequest, prepareResume } from './prepareRequest.js';
import { prepareRetry } from './retryFailed.js';
import { previewRewind, rewind, type RewindDeps } from './rewind.js';
import { RunAssembler, type RunAssemblerDeps, type RunResult } from './runAssembler.js';
import type { RunEventLog } from './runEventLog.js';

const busy = 'A run is already in progress in this folder: wait for it to finish, or cancel it first.';
const busyForHistory = 'A run is in progress in this folder: cancel it or wait for it to finish before going back in the history.';
const busyForDiscard = 'A run is in progress in this folder: cancel it first, then discard it.';

const askEverything: ApprovalSettings = { files: 'ask', commands: 'ask', timeoutSeconds: 600, reviewPlan: false };

/** Finished runs whose results an in-process caller can still wait for (the active run's always is). */
const keptResults = 16;

export interface SendOptions {
  /** Files, folders and notes attached to the request (folder-relative paths), stored with the message. */
  context?: readonly ContextItem[];
}

interface ActiveRun {
  controller: AbortController;
  finished: Promise<RunResult>;
}

export interface RunGateDeps extends RunAssemblerDeps {
  /** The recorded events of the latest run, forgotten when its request is undone or discarded. */
  runEvents: Pick<RunEventLog, 'clear'>;
}

/**
 * One run at a time in a workbench: starts a request's run (new, resumed, retried, regenerated), cancels it,
 * and refuses going back in the history (undo, discard, a revert) while a run is active or starting.
 */
export class RunGate {
  private active: ActiveRun | null = null;
  /** Set while a send or resume is between its checks and its start, so a second one cannot slip in. */
  private starting = false;
  /** The ends of the latest runs by id, oldest first, for finished(). */
  private readonly results = new Map<string, Promise<RunResult>>();
  private readonly assembler: RunAssembler;

  constructor(private readonly deps: RunGateDeps) {
    this.assembler = new RunAssembler(deps);
  }

  get running(): boolean {
    return this.active !== null || this.starting;
  }

  /** The active run's usage per step as it counts it (its request's earlier runs included); null between runs. */
  liveUsage(): RunUsage | null {
    return this.assembler.liveUsage();
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

  /** Settles when the run has stopped and `run-finished` was emitted; never rejects. Refused for a run this workbench no longer knows. */
  async finished(runId: string): Promise<RunResult> {
    const result = this.results.get(runId);
    if (!result) throw new RunRefusedError(`There is no run "${runId.slice(0, 120)}" to wait for in this workbench.`);
    return result;
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
    const finished = this.assembler.execute({ runId, record, settings, approvals, signal: controller.signal }, () => {
      this.active = null;
    });
    this.active = { controller, finished };
    this.keep(runId, finished);
    return { messageId: record.messageId, runId };
  }

  private keep(runId: string, finished: Promise<RunResult>): void {
    this.results.set(runId, finished);
    for (const oldest of this.results.keys()) {
      if (this.results.size <= keptResults) break;
      this.results.delete(oldest);
    }
  }

  private async settings(): Promise<LlmSettings> {
    const settings = await this.deps.options.llmSettings?.();
    if (!settings) throw new RunRefusedError('No model is configured: set the model server and model in Settings.');
    if (!settings.model.trim()) throw new RunRefusedError('No model is chosen: set the model name in Settings.');
    return settings;
  }
}
