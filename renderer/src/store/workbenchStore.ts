import { createStore, type StoreApi } from 'zustand/vanilla';
import type { DesktopCommand } from '../../../engine/contract/bridge.js';
import type { ChangeRange, ContextItem, RecentFolder, RequestChannel, RequestPayload, RequestResults, Response, UndoChoices, WorkbenchEvent } from '../../../engine/contract/index.js';
import type { ChangeTotals } from '../../../engine/contract/changes.js';
import type { WorkbenchBridge } from '../bridge/types.js';
import { applyEvent } from './applyEvent.js';
import { SnapshotSync } from './snapshotSync.js';
import { withoutChannel } from './requestError.js';
import { initialState, type WorkbenchState } from './state.js';

export interface WorkbenchActions {
  /** Loads host info, settings and the snapshot, then follows events. Returns the unsubscribe. */
  start(): Promise<() => void>;
  resync(): Promise<void>;
  /** Sends a request with the items attached to it; false when it was refused (the error is shown). */
  send(prompt: string, context?: readonly ContextItem[]): Promise<boolean>;
  /** The folder's files and folders matching what was typed after `@`; errors are returned for the list to show. */
  searchPaths(query: string): Promise<Response<'context:paths'>>;
  cancel(): Promise<void>;
  resume(): Promise<boolean>;
  /** Tries the failed steps of the latest request again (each told why it failed before). */
  retryFailed(): Promise<boolean>;
  /** Forgets a stopped run, keeping the files as they are. */
  discard(): Promise<void>;
  /** Answers an approval; a refusal (an edit that does not fit, an answer too late) is returned for the card to show. */
  approve(payload: RequestPayload<'session:approve'>): Promise<Response<'session:approve'>>;
  /** Answers a question of the model (no answer when `answer` is absent); a refusal is returned for the card to show. */
  answerQuestion(payload: RequestPayload<'session:answer-question'>): Promise<Response<'session:answer-question'>>;
  /** Answers the plan review; a refusal is returned for the card to show. */
  reviewPlan(payload: RequestPayload<'session:review-plan'>): Promise<Response<'session:review-plan'>>;
  /** The files undo(messageId) would restore; undefined when the request failed (the error is shown). */
  previewUndo(messageId: string): Promise<RequestResults['session:undo-preview'] | undefined>;
  /** Undoes to before the message, each file another conversation changed since as chosen; errors are returned for the dialog to show. */
  undo(messageId: string, choices?: UndoChoices): Promise<Response<'session:undo'>>;
  regenerate(messageId: string, choices?: UndoChoices): Promise<boolean>;
  /** Counts the request's changed files and lines (once; `changes-updated` keeps them current). */
  loadChangeTotals(messageId: string): Promise<void>;
  /** A request's changed files; the counts are kept for its "N files changed" line. Errors are returned, not shown as banners. */
  loadChanges(messageId: string, range?: ChangeRange): Promise<Response<'changes:list'>>;
  loadFileDiff(messageId: string, path: string, range?: ChangeRange): Promise<Response<'changes:file'>>;
  revertFiles(messageId: string, paths: string[]): Promise<Response<'changes:revert'>>;
  undoRevert(revertId: string, paths: string[]): Promise<Response<'changes:undo-revert'>>;
  /** What a waiting approval would change, with its own or edited arguments. */
  previewApproval(requestId: string, args?: Record<string, unknown>): Promise<Response<'session:approval-preview'>>;
  /** research.md or plan.md of the current run, null when not written yet. */
  readRpiFile(file: 'research' | 'plan'): Promise<string | null>;
  /** A request's research.md or plan.md, current or kept in the plan history; errors are returned for the dialog to show. */
  readRunFile(messageId: string, file: 'research' | 'plan'): Promise<Response<'session:run-file'>>;
  /** The open folder's check command (kept in the user's config); errors are returned for Settings to show. */
  folderCheck(): Promise<Response<'folder:check'>>;
  /** Sets the open folder's check command; null removes it. */
  setFolderCheck(command: string | null): Promise<Response<'folder:set-check'>>;
  /** The MCP servers of Settings: list, save, remove, enable, restart, always-allow; errors are returned for the page to show. */
  mcp<C extends McpChannel>(channel: C, payload: RequestPayload<C>): Promise<Response<C>>;
  /** Lists the server's models with the given (unsaved) settings; errors are returned, not shown as banners. */
  testConnection(payload: RequestPayload<'settings:test-connection'>): Promise<Response<'settings:test-connection'>>;
  openFolder(folder: string): Promise<void>;
  pickFolder(): Promise<void>;
  loadRecentFolders(): Promise<RecentFolder[]>;
  saveSettings(patch: RequestPayload<'settings:set'>): Promise<string | null>;
  /** Shows another conversation of the folder (its messages, run and plans). */
  switchConversation(conversationId: string): Promise<void>;
  /** Starts an empty conversation and shows it. */
  newConversation(): Promise<void>;
  /** Gives a conversation the user's title; a refusal (an empty title) is returned for the list to show. */
  renameConversation(conversationId: string, title: string): Promise<Response<'conversations:rename'>>;
  /** Deletes a conversation with its history and kept plans; a refusal (a run going) is returned for the dialog to show. */
  deleteConversation(conversationId: string): Promise<Response<'conversations:delete'>>;
  dismissError(): void;
  connectionLost(): void;
  /** The real path of a dropped file or folder; null where the host cannot tell (the browser host). */
  folderPathOf(file: File): string | null;
  /** Follows the desktop menu's commands (none arrive in a browser). Returns the unsubscribe. */
  onDesktopCommand(listener: (command: DesktopCommand) => void): () => void;
}

export type WorkbenchStore = StoreApi<WorkbenchState & WorkbenchActions>;

/** The requests that start a run. */
type StartChannel = 'session:send' | 'session:resume' | 'session:retry-failed' | 'session:regenerate';

/** The requests of Settings → MCP servers. */
export type McpChannel = Extract<RequestChannel, `mcp:${string}`>;

/** A vanilla zustand store: state changes only through applyEvent, applySnapshot and request results. */
export function createWorkbenchStore(bridge: WorkbenchBridge): WorkbenchStore {
  return createStore<WorkbenchState & WorkbenchActions>()((set, get) => {
    /** A request's response, its error in the words a person reads (without the channel it came on). */
    const request = async <C extends RequestChannel>(channel: C, payload: RequestPayload<C>): Promise<Response<C>> => {
      const send = bridge.request[channel] as unknown as (payload: RequestPayload<C>) => Promise<Response<C>>;
      const response = await send(payload);
      return response.ok ? response : { ok: false, error: withoutChannel(response.error) };
    };
    const call = async <C extends RequestChannel>(channel: C, payload: RequestPayload<C>): Promise<RequestResults[C] | undefined> => {
      const response = await request(channel, payload);
      if (response.ok) return response.value as RequestResults[C];
      set({ error: response.error, errorRunningIn: null });
      return undefined;
    };
    /**
     * Whether a run started; a refusal is shown as the request error, with the conversation whose run is
     * going offered as a switch when it is another one (a folder runs one request at a time).
     */
    const starts = async <C extends StartChannel>(channel: C, payload: RequestPayload<C>): Promise<boolean> => {
      const response = await request(channel, payload);
      if (response.ok) return true;
      const { runningConversationId, conversationId } = get();
      set({ error: response.error, errorRunningIn: runningConversationId !== null && runningConversationId !== conversationId ? runningConversationId : null });
      return false;
    };
    /** The conversation the page shows, named in every request about it (none yet: the engine picks or starts one). */
    const shown = () => {
      const { conversationId } = get();
      return conversationId === null ? {} : { conversationId };
    };
    const snapshots = new SnapshotSync({
      ask: (conversationId) => request('workbench:snapshot', conversationId === null ? {} : { conversationId }),
      getState: get,
      setState: (update) => set(update),
      showError: (error) => set({ error, errorRunningIn: null }),
    });

    const onEvent = (event: WorkbenchEvent) => {
      snapshots.heard(event);
      set((state) => applyEvent(state, event));
      // A gap means missed events; a finished run or an undo also changed the folder, whose file count the snapshot has.
      if (get().needsResync || event.type === 'run-finished' || event.type === 'conversation-reset') void get().resync();
    };

    /** Requests whose counts are on their way, so many lines showing one request ask once. */
    const counting = new Set<string>();
    const keepTotals = (messageId: string, totals: ChangeTotals | null) =>
      set((state) => (sameTotals(state.changeTotals[messageId], totals) ? state : { changeTotals: { ...state.changeTotals, [messageId]: totals } }));

    return {
      ...initialState,
      async start() {
        const unsubscribe = bridge.onEvent(onEvent);
        const [host, settings] = await Promise.all([call('host:info', {}), call('settings:get', {})]);
        set({ host: host ?? null, settings: settings ?? null });
        await get().resync();
        set({ connection: 'ready' });
        return unsubscribe;
      },
      resync: () => snapshots.resync(),
      send: (prompt, context = []) => starts('session:send', { prompt, ...(context.length > 0 ? { context: [...context] } : {}), ...shown() }),
      searchPaths: (query) => request('context:paths', { query }),
      async cancel() {
        await call('session:cancel', {});
      },
      resume: () => starts('session:resume', shown()),
      retryFailed: () => starts('session:retry-failed', shown()),
      async discard() {
        await call('session:discard', shown());
      },
      approve: (payload) => request('session:approve', payload),
      answerQuestion: (payload) => request('session:answer-question', payload),
      reviewPlan: (payload) => request('session:review-plan', payload),
      previewUndo: (messageId) => call('session:undo-preview', { messageId, ...shown() }),
      undo: (messageId, choices = {}) => request('session:undo', { messageId, choices, ...shown() }),
      regenerate: (messageId, choices = {}) => starts('session:regenerate', { messageId, choices, ...shown() }),
      async loadChangeTotals(messageId) {
        if (counting.has(messageId)) return;
        counting.add(messageId);
        try {
          const response = await request('changes:list', { messageId });
          keepTotals(messageId, response.ok ? response.value.totals : null);
        } finally {
          counting.delete(messageId);
        }
      },
      async loadChanges(messageId, range = 'request') {
        const response = await request('changes:list', { messageId, range });
        if (response.ok && range === 'request') keepTotals(response.value.messageId, response.value.totals);
        return response;
      },
      loadFileDiff: (messageId, path, range = 'request') => request('changes:file', { messageId, path, range }),
      revertFiles: (messageId, paths) => request('changes:revert', { messageId, paths }),
      undoRevert: (revertId, paths) => request('changes:undo-revert', { revertId, paths }),
      previewApproval: (requestId, args) => request('session:approval-preview', { requestId, ...(args ? { args } : {}) }),
      async readRpiFile(file) {
        return (await call('rpi:read', { file, ...shown() }))?.text ?? null;
      },
      readRunFile: (messageId, file) => request('session:run-file', { messageId, file, ...shown() }),
      folderCheck: () => request('folder:check', {}),
      setFolderCheck: (command) => request('folder:set-check', { command }),
      mcp: (channel, payload) => request(channel, payload),
      testConnection: (payload) => request('settings:test-connection', payload),
      openFolder: (folder) => snapshots.opened(() => call('folders:open', { folder })),
      pickFolder: () => snapshots.opened(() => call('folders:pick', {})),
      async loadRecentFolders() {
        return (await call('folders:recent', {})) ?? [];
      },
      async saveSettings(patch) {
        const response = await request('settings:set', patch);
        if (!response.ok) return response.error;
        set({ settings: response.value });
        return null;
      },
      switchConversation: (conversationId) => snapshots.switchTo(conversationId),
      async newConversation() {
        const created = await call('conversations:new', {});
        if (created !== undefined) await get().switchConversation(created.id);
      },
      renameConversation: (conversationId, title) => request('conversations:rename', { conversationId, title }),
      deleteConversation: (conversationId) => request('conversations:delete', { conversationId }),
      dismissError: () => set({ error: null, errorRunningIn: null }),
      connectionLost: () => set({ connection: 'lost' }),
      folderPathOf: (file) => bridge.pathForFile?.(file) || null,
      onDesktopCommand: (listener) => bridge.onCommand?.(listener) ?? (() => undefined),
    };
  });
}

/** Equal counts keep their object, so what follows them is not redrawn (or fetched again) for nothing. */
function sameTotals(a: ChangeTotals | null | undefined, b: ChangeTotals | null): boolean {
  if (a === undefined) return false;
  if (a === null || b === null) return a === b;
  return a.files === b.files && a.added === b.added && a.removed === b.removed;
}
