import { createStore, type StoreApi } from 'zustand/vanilla';
import type { RecentFolder, RequestChannel, RequestPayload, RequestResults, Response, WorkbenchEvent } from '../../../engine/contract/index.js';
import type { WorkbenchBridge } from '../bridge/types.js';
import { applyEvent } from './applyEvent.js';
import { applySnapshot, initialState, type WorkbenchState } from './state.js';

export interface WorkbenchActions {
  /** Loads host info, settings and the snapshot, then follows events. Returns the unsubscribe. */
  start(): Promise<() => void>;
  resync(): Promise<void>;
  send(prompt: string): Promise<boolean>;
  openFolder(folder: string): Promise<void>;
  pickFolder(): Promise<void>;
  loadRecentFolders(): Promise<RecentFolder[]>;
  saveSettings(patch: RequestPayload<'settings:set'>): Promise<string | null>;
  dismissError(): void;
  connectionLost(): void;
}

export type WorkbenchStore = StoreApi<WorkbenchState & WorkbenchActions>;

/** A vanilla zustand store: state changes only through applyEvent, applySnapshot and request results. */
export function createWorkbenchStore(bridge: WorkbenchBridge): WorkbenchStore {
  return createStore<WorkbenchState & WorkbenchActions>()((set, get) => {
    const call = async <C extends RequestChannel>(channel: C, payload: RequestPayload<C>): Promise<RequestResults[C] | undefined> => {
      const send = bridge.request[channel] as unknown as (payload: RequestPayload<C>) => Promise<Response<C>>;
      const response = await send(payload);
      if (response.ok) return response.value as RequestResults[C];
      set({ error: response.error });
      return undefined;
    };

    const onEvent = (event: WorkbenchEvent) => {
      set((state) => applyEvent(state, event));
      if (get().needsResync) void get().resync();
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
      async send(prompt) {
        const result = await call('session:send', { prompt });
        return result !== undefined;
      },
      async openFolder(folder) {
        const snapshot = await call('folders:open', { folder });
        if (snapshot) set((state) => applySnapshot(state, snapshot));
      },
      async pickFolder() {
        const snapshot = await call('folders:pick', {});
        if (snapshot) set((state) => applySnapshot(state, snapshot));
      },
      async loadRecentFolders() {
        return (await call('folders:recent', {})) ?? [];
      },
      async saveSettings(patch) {
        const response = await bridge.request['settings:set'](patch);
        if (!response.ok) return response.error;
        set({ settings: response.value });
        return null;
      },
      dismissError: () => set({ error: null }),
      connectionLost: () => set({ connection: 'lost' }),
    };
  });
}
