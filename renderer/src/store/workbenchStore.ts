import { createStore, type StoreApi } from 'zustand/vanilla';
import type { DesktopCommand } from '../../../engine/contract/bridge.js';
import type { RecentFolder, RequestChannel, RequestPayload, RequestResults, Response, Snapshot, WorkbenchEvent } from '../../../engine/contract/index.js';
import type { WorkbenchBridge } from '../bridge/types.js';
import { applyEvent } from './applyEvent.js';
import { withoutChannel } from './requestError.js';
import { applySnapshot, initialState, type WorkbenchState } from './state.js';

export interface WorkbenchActions {
  /** Loads host info, settings and the snapshot, then follows events. Returns the unsubscribe. */
  start(): Promise<() => void>;
  resync(): Promise<void>;
  send(prompt: string): Promise<boolean>;
  cancel(): Promise<void>;
  resume(): Promise<boolean>;
  /** Forgets a stopped run, keeping the files as they are. */
  discard(): Promise<void>;
  /** Answers an approval; a refusal (an edit that does not fit, an answer too late) is returned for the card to show. */
  approve(payload: RequestPayload<'session:approve'>): Promise<Response<'session:approve'>>;
  /** Answers the plan review; a refusal is returned for the card to show. */
  reviewPlan(payload: RequestPayload<'session:review-plan'>): Promise<Response<'session:review-plan'>>;
  /** The files undo(messageId) would restore; undefined when the request failed (the error is shown). */
  previewUndo(messageId: string): Promise<RequestResults['session:undo-preview'] | undefined>;
  undo(messageId: string): Promise<boolean>;
  regenerate(messageId: string): Promise<boolean>;
  /** research.md or plan.md of the current run, null when not written yet. */
  readRpiFile(file: 'research' | 'plan'): Promise<string | null>;
  /** Lists the server's models with the given (unsaved) settings; errors are returned, not shown as banners. */
  testConnection(payload: RequestPayload<'settings:test-connection'>): Promise<Response<'settings:test-connection'>>;
  openFolder(folder: string): Promise<void>;
  pickFolder(): Promise<void>;
  loadRecentFolders(): Promise<RecentFolder[]>;
  saveSettings(patch: RequestPayload<'settings:set'>): Promise<string | null>;
  dismissError(): void;
  connectionLost(): void;
  /** The real path of a dropped file or folder; null where the host cannot tell (the browser host). */
  folderPathOf(file: File): string | null;
  /** Follows the desktop menu's commands (none arrive in a browser). Returns the unsubscribe. */
  onDesktopCommand(listener: (command: DesktopCommand) => void): () => void;
}

export type WorkbenchStore = StoreApi<WorkbenchState & WorkbenchActions>;

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
      set({ error: response.error });
      return undefined;
    };
    /** Whether a request succeeded; a failure is shown as the request error. */
    const succeeds = async <C extends RequestChannel>(channel: C, payload: RequestPayload<C>): Promise<boolean> => (await call(channel, payload)) !== undefined;
    /** Shows the folder a request opened; nothing when it failed or opened none (a cancelled pick). */
    const show = (snapshot: Snapshot | null | undefined) => {
      if (snapshot) set((state) => applySnapshot(state, snapshot));
    };

    const onEvent = (event: WorkbenchEvent) => {
      set((state) => applyEvent(state, event));
      // A gap means missed events; a finished run or an undo also changed the folder, whose file count the snapshot has.
      if (get().needsResync || event.type === 'run-finished' || event.type === 'conversation-reset') void get().resync();
    };

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
      async resync() {
        const snapshot = await call('workbench:snapshot', {});
        if (snapshot !== undefined) set((state) => applySnapshot(state, snapshot));
      },
      send: (prompt) => succeeds('session:send', { prompt }),
      async cancel() {
        await call('session:cancel', {});
      },
      resume: () => succeeds('session:resume', {}),
      async discard() {
        await call('session:discard', {});
      },
      approve: (payload) => request('session:approve', payload),
      reviewPlan: (payload) => request('session:review-plan', payload),
      previewUndo: (messageId) => call('session:undo-preview', { messageId }),
      undo: (messageId) => succeeds('session:undo', { messageId }),
      regenerate: (messageId) => succeeds('session:regenerate', { messageId }),
      async readRpiFile(file) {
        return (await call('rpi:read', { file }))?.text ?? null;
      },
      testConnection: (payload) => request('settings:test-connection', payload),
      async openFolder(folder) {
        show(await call('folders:open', { folder }));
      },
      async pickFolder() {
        show(await call('folders:pick', {}));
      },
      async loadRecentFolders() {
        return (await call('folders:recent', {})) ?? [];
      },
      async saveSettings(patch) {
        const response = await request('settings:set', patch);
        if (!response.ok) return response.error;
        set({ settings: response.value });
        return null;
      },
      dismissError: () => set({ error: null }),
      connectionLost: () => set({ connection: 'lost' }),
      folderPathOf: (file) => bridge.pathForFile?.(file) || null,
      onDesktopCommand: (listener) => bridge.onCommand?.(listener) ?? (() => undefined),
    };
  });
}
