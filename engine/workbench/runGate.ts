import { randomUUID } from 'node:crypto';
import type { ApprovalSettings, ContextItem, RunUsage, StartedRun, UndoChoices, UndoResult, UnsequencedEvent } from '../contract/index.js';
import type { ChangesService } from '../changes/changesService.js';
import { RunRefusedError } from '../contract/runRefusedError.js';
import type { LlmSettings } from '../llm/llmTypes.js';
import type { Conversations, ConversationScope } from '../conversations/conversations.js';
import type { RunRecord } from '../rpi/runRecord.js';
import { discardStoppedRun } from './discardRun.js';
import { attachedItems, prepareNewRequest, prepareResume } from './prepareRequest.js';
import { prepareRetry } from './retryFailed.js';
import { previewRewind, rewind, type RewindDeps } from './rewind.js';
import { RunAssembler, type RunAssemblerDeps, type RunResult } from './runAssembler.js';
import type { ConversationRunEvents } from './conversationRunEvents.js';

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
  runEvents: Pick<ConversationRunEvents, 'clear'>;
  /** The folder's conversations: their histories decide which checkpoints an undo may collect and which files it must ask about. */
  conversations: Pick<Conversations, 'writtenHistories' | 'list' | 'find' | 'allMessages'>;
  /** The folder's Changes view: an undo puts back what it counts as the undone requests' changes, as its revert does. */
  changes: Pick<ChangesService, 'list' | 'revert'>;
}

/**
 * One run at a time in a folder, whichever conversation it is in: starts a request's run (new, resumed,
 * retried, regenerated) in a conversation, cancels it, and refuses going back in the history (undo,
 * discard, a revert) while a run is active or starting.
 */
export class RunGate {
  private active: ActiveRun | null = null;
  /** Set while a send or resume is between its checks and its start, so a second one cannot slip in. */
  private starting = false;
  /** The conversation of the active or starting run (or history change); null when none is. */
  private busyIn: string | null = null;
  /** The ends of the latest runs by id, oldest first, for finished(). */
  private readonly results = new Map<string, Promise<RunResult>>();
  private readonly assembler: RunAssembler;

  constructor(private readonly deps: RunGateDeps) {
    this.assembler = new RunAssembler(deps);
  }

  get running(): boolean {
    return this.active !== null || this.starting;
  }

  /** The conversation whose run is active (or starting), or null. */
  get runningConversation(): string | null {
    return this.running ? this.busyIn : null;
  }

  /** The active run's usage per step as it counts it (its request's earlier runs included); null between runs. */
  liveUsage(): RunUsage | null {
    return this.assembler.liveUsage();
  }

  /**
   * Appends the user's message to the conversation (with the items attached to it), forgets its previous
   * run's research and plan, and starts a run.
   */
  async send(conversation: ConversationScope, prompt: string, options: SendOptions = {}): Promise<StartedRun> {
    const text = prompt.trim();
    if (!text) throw new RunRefusedError('The message is empty: type a request first.');
    const context = attachedItems(options.context);
    return this.exclusive(conversation, () => this.launch(conversation, () => prepareNewRequest(this.requestDeps(conversation), text, context)));
  }

  /**
   * Puts back the files the conversation changed from the message on and cuts it there (see rewind), each
   * file another conversation changed since as `choices` says; refused during a run.
   */
  async undo(conversation: ConversationScope, messageId: string, choices?: UndoChoices): Promise<UndoResult> {
    const { undone } = await this.exclusive(conversation, () => rewind(this.rewindDeps(conversation), messageId, choices), busyForHistory);
    return undone;
  }

  /** What undo(messageId) would put back, and which files another conversation changed since, for a confirmation. */
  previewUndo(conversation: ConversationScope, messageId: string) {
    return previewRewind(this.rewindDeps(conversation), messageId);
  }

  /** Undoes to before the request (the message itself, or the one a summary answers), as undo does, and sends it again. */
  regenerate(conversation: ConversationScope, messageId: string, choices?: UndoChoices): Promise<StartedRun> {
    return this.exclusive(
      conversation,
      async () => {
        const { message } = await rewind(this.rewindDeps(conversation), messageId, choices);
        return this.launch(conversation, () => prepareNewRequest(this.requestDeps(conversation), message.text, message.context ?? []));
      },
      busyForHistory,
    );
  }

  /** Runs a change the user asked for outside a run (a file revert), refused while a run is active and holding off any start until done. */
  whileIdle<T>(task: () => Promise<T>): Promise<T> {
    return this.exclusive(null, task, busyForHistory);
  }

  /** Answers the stopped request with where it stopped and forgets its research and plan; the files stay. */
  discard(conversation: ConversationScope): Promise<boolean> {
    return this.exclusive(conversation, () => discardStoppedRun(this.rewindDeps(conversation)), busyForDiscard);
  }

  /** Goes on with the conversation's request whose run stopped (cancel, crash, failure) at the first pending step. */
  async resume(conversation: ConversationScope): Promise<StartedRun> {
    return this.exclusive(conversation, () => this.launch(conversation, () => prepareResume(this.requestDeps(conversation))));
  }

  /**
   * Tries the failed steps of the conversation's latest request again: each `[!]` item goes back to
   * pending (done items are never touched), its earlier failure reason kept for its next attempt, the
   * request's summary is taken back (a new one follows), and the run resumes from disk. Works for a run
   * of an earlier session.
   */
  async retryFailed(conversation: ConversationScope): Promise<StartedRun> {
    return this.exclusive(conversation, () => this.launch(conversation, () => prepareRetry(this.requestDeps(conversation))));
  }

  /** The services a request of the conversation is readied with; what they announce names the conversation. */
  private requestDeps(conversation: ConversationScope) {
    const { checkpoints, bus } = this.deps;
    return { stateDir: conversation.dir, shownAs: conversation.shownAs, conversation: conversation.store, checkpoints, bus: { emit: scopedEmit(bus, conversation.id) } };
  }

  private rewindDeps(conversation: ConversationScope): RewindDeps {
    const { runEvents } = this.deps;
    const { conversations, changes, checkpoints, workspace } = this.deps;
    return {
      ...this.requestDeps(conversation),
      root: workspace.root,
      conversationId: conversation.id,
      changes,
      conversations,
      checkpoints,
      allMessages: () => conversations.allMessages(),
      emit: scopedEmit(this.deps.bus, conversation.id),
      histories: () => conversations.writtenHistories(),
      forgetRun: () => runEvents.clear(conversation.id),
    };
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

  /**
   * Runs `task` (for `conversation`, or none) while no run is active, holding off any other start until it
   * is done. Refused with `refusal`, or, for a start, with which conversation is busy.
   */
  private async exclusive<T>(conversation: ConversationScope | null, task: () => Promise<T>, refusal?: string): Promise<T> {
    if (this.running) throw new RunRefusedError(refusal ?? this.busyRefusal(conversation));
    this.starting = true;
    // A change to the history (undo, discard, a revert) holds starts off but is no run: no conversation shows as running.
    this.busyIn = refusal === undefined ? (conversation?.id ?? null) : null;
    try {
      return await task();
    } finally {
      this.starting = false;
      if (!this.active) this.busyIn = null;
    }
  }

  private busyRefusal(conversation: ConversationScope | null): string {
    if (this.busyIn === null || this.busyIn === conversation?.id) return 'A run is already in progress in this folder: wait for it to finish, or cancel it first.';
    return `A run of another conversation (${this.busyIn}) is in progress in this folder, and a folder runs one request at a time: switch to that conversation to follow it, wait for it to finish, or cancel it first.`;
  }

  /** Checks the settings, prepares the run's record (nothing is written when the settings are missing), starts it. */
  private async launch(conversation: ConversationScope, prepare: () => Promise<RunRecord>): Promise<StartedRun> {
    const settings = await this.settings();
    const approvals = (await this.deps.options.approvals?.()) ?? askEverything;
    const record = await prepare();
    const runId = `run-${randomUUID()}`;
    const controller = new AbortController();
    const finished = this.assembler.execute({ runId, record, settings, approvals, signal: controller.signal, conversation }, () => {
      this.active = null;
      this.busyIn = null;
    });
    this.active = { controller, finished };
    this.busyIn = conversation.id;
    this.keep(runId, finished);
    return { messageId: record.messageId, runId, conversationId: conversation.id };
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

/** Emits on the bus with the conversation named, as every event of a conversation's history or run is. */
function scopedEmit(bus: { emit(event: UnsequencedEvent): unknown }, conversationId: string): (event: UnsequencedEvent) => void {
  return (event) => void bus.emit({ ...event, conversationId });
}
