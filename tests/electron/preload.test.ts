import { describe, expect, it, vi } from 'vitest';
import { requestChannels, type WorkbenchEvent } from '../../engine/contract/index.js';
import type { WorkbenchBridge } from '../../engine/contract/bridge.js';

type Listener = (event: unknown, payload: unknown) => void;
const electron = vi.hoisted(() => {
  const listeners = new Map<string, Set<Listener>>();
  return {
    listeners,
    exposed: new Map<string, unknown>(),
    ipcRenderer: {
      invoke: vi.fn(async (channel: string, payload: unknown) => ({ ok: true, value: { channel, payload } })),
      on(channel: string, listener: Listener) {
        listeners.set(channel, (listeners.get(channel) ?? new Set()).add(listener));
      },
      removeListener(channel: string, listener: Listener) {
        listeners.get(channel)?.delete(listener);
      },
    },
  };
});
vi.mock('electron', () => ({
  ipcRenderer: electron.ipcRenderer,
  contextBridge: { exposeInMainWorld: (key: string, api: unknown) => electron.exposed.set(key, api) },
}));

await import('../../electron/preload.js');
const bridge = electron.exposed.get('workbench') as WorkbenchBridge;
const emit = (payload: unknown) => electron.listeners.get('workbench:event')?.forEach((listener) => listener({ sender: 'ipc internals' }, payload));
const event: WorkbenchEvent = { type: 'warning', seq: 3, runId: null, message: 'careful' };

describe('the preload bridge', () => {
  it('exposes only `workbench`, with one function per contract channel and onEvent', () => {
    expect([...electron.exposed.keys()]).toEqual(['workbench']);
    expect(Object.keys(bridge).sort()).toEqual(['onEvent', 'request']);
    expect(Object.keys(bridge.request).sort()).toEqual([...requestChannels].sort());
  });

  it('invokes the named channel with the payload', async () => {
    expect(await bridge.request['session:send']({ prompt: 'add tests' })).toEqual({
      ok: true,
      value: { channel: 'session:send', payload: { prompt: 'add tests' } },
    });
    expect(electron.ipcRenderer.invoke).toHaveBeenCalledWith('session:send', { prompt: 'add tests' });
  });

  it('gives no way to invoke an arbitrary channel', () => {
    expect((bridge.request as Record<string, unknown>)['evil:channel']).toBeUndefined();
    expect(Object.values(bridge).some((value) => value === electron.ipcRenderer)).toBe(false);
  });

  it('hands a listener only the event, and stops after unsubscribing', () => {
    const received: unknown[][] = [];
    const unsubscribe = bridge.onEvent((...args: unknown[]) => received.push(args));
    emit(event);
    unsubscribe();
    emit({ ...event, seq: 4 });
    expect(received).toEqual([[event]]);
  });
});
