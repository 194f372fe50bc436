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
    /** Stands in for Electron's: a File from disk has a path, one built in JS has '', anything else throws. */
    webUtils: {
      getPathForFile(file: File) {
        if (!(file instanceof File)) throw new TypeError('Expected a File');
        return file.name === 'from-disk' ? '/home/ada/ledger' : '';
      },
    },
  };
});
vi.mock('electron', () => ({
  ipcRenderer: electron.ipcRenderer,
  webUtils: electron.webUtils,
  contextBridge: { exposeInMainWorld: (key: string, api: unknown) => electron.exposed.set(key, api) },
}));

await import('../../electron/preload.js');
const bridge = electron.exposed.get('workbench') as WorkbenchBridge;
const emitOn = (channel: string, payload: unknown) =>
  electron.listeners.get(channel)?.forEach((listener) => listener({ sender: 'ipc internals' }, payload));
const emit = (payload: unknown) => emitOn('workbench:event', payload);
const event: WorkbenchEvent = { type: 'warning', seq: 3, runId: null, message: 'careful' };

describe('the preload bridge', () => {
  it('exposes only `workbench`: one function per contract channel, the two subscriptions and pathForFile', () => {
    expect([...electron.exposed.keys()]).toEqual(['workbench']);
    expect(Object.keys(bridge).sort()).toEqual(['onCommand', 'onEvent', 'pathForFile', 'request']);
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

  it('hands a command listener only the menu commands it knows, and stops after unsubscribing', () => {
    const received: unknown[][] = [];
    const onCommand = bridge.onCommand;
    if (!onCommand) throw new Error('the desktop bridge has onCommand');
    const unsubscribe = onCommand((...args: unknown[]) => received.push(args));
    for (const payload of ['open-settings', 'stop-run', 'focus-composer', 'new-conversation', 'rm -rf', { command: 'stop-run' }, 'toString', null]) {
      emitOn('workbench:command', payload);
    }
    unsubscribe();
    emitOn('workbench:command', 'stop-run');
    expect(received).toEqual([['open-settings'], ['stop-run'], ['focus-composer'], ['new-conversation']]);
  });

  it('gives the real path of a dropped file, and null when there is none', () => {
    expect(bridge.pathForFile?.(new File([], 'from-disk'))).toBe('/home/ada/ledger');
    expect(bridge.pathForFile?.(new File(['made in JS'], 'notes.txt'))).toBeNull();
    expect(bridge.pathForFile?.({ name: 'from-disk' } as unknown as File)).toBeNull();
  });
});
