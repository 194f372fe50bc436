import { beforeEach, describe, expect, it, vi } from 'vitest';

const electron = vi.hoisted(() => ({ supported: true, made: [] as Array<{ options: unknown; shown: boolean; emit(name: string): void }> }));
vi.mock('electron', async () => {
  const { EventEmitter: Emitter } = await import('node:events');
  class Notification extends Emitter {
    shown = false;
    constructor(readonly options: unknown) {
      super();
      electron.made.push(this);
    }
    static isSupported() {
      return electron.supported;
    }
    show() {
      this.shown = true;
    }
  }
  return { Notification };
});

const { notifyDesktop } = await import('../../electron/desktopNotifier.js');

beforeEach(() => {
  electron.supported = true;
  electron.made.length = 0;
});

describe('notifyDesktop', () => {
  it('shows an OS notification whose click runs the handler', () => {
    const onClick = vi.fn();
    const shown = notifyDesktop({ title: 'Run finished in ledger', body: 'Added a greeting module' }, onClick);
    const [made] = electron.made;
    expect(made).toMatchObject({ options: { title: 'Run finished in ledger', body: 'Added a greeting module' }, shown: true });
    expect(shown).toBe(made);
    made?.emit('click');
    expect(onClick).toHaveBeenCalledOnce();
  });

  it('shows nothing where the OS has no notifications', () => {
    electron.supported = false;
    expect(notifyDesktop({ title: 't', body: 'b' }, () => {})).toBeNull();
    expect(electron.made).toEqual([]);
  });
});
