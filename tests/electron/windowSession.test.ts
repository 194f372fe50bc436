import { describe, expect, it, vi } from 'vitest';
import type { SessionWatcher } from '../../electron/windowSession.js';
import { fakeSession, runEvent, warning } from './fakes.js';

describe('WindowSession', () => {
  it("forwards the open folder's events to its window", async () => {
    const { window, session, opened } = fakeSession();
    await session.open('/p/ledger');
    opened.get('/p/ledger')?.emit(warning(1));
    expect(window.sent).toEqual([{ channel: 'workbench:event', event: warning(1) }]);
    expect(window.title).toBe('title:/p/ledger');
  });

  it('releases the previous folder when another one opens, and stops forwarding its events', async () => {
    const { window, session, opened } = fakeSession();
    await session.open('/p/a');
    await session.open('/p/b');
    expect(opened.get('/p/a')?.closed).toBe(true);
    opened.get('/p/a')?.emit(warning(7));
    expect(window.sent).toEqual([]);
    expect(session.folder).toBe('/p/b');
  });

  it('keeps the current folder when the new one cannot be opened', async () => {
    const { session, opened } = fakeSession();
    await session.open('/p/a');
    await expect(session.open('/p/broken')).rejects.toThrow('Folder not found');
    expect(session.folder).toBe('/p/a');
    expect(opened.get('/p/a')?.closed).toBe(false);
  });

  it('releases the folder on close', async () => {
    const { session, opened } = fakeSession();
    await session.open('/p/a');
    await session.close();
    expect(opened.get('/p/a')?.closed).toBe(true);
    expect(session.current()).toBeNull();
  });

  it('marks the title while a run is active', async () => {
    const { window, session, opened } = fakeSession();
    await session.open('/p/ledger');
    const workbench = opened.get('/p/ledger');
    workbench?.emit(runEvent('run-started', { messageId: 'm1', startedAt: 1_000 }));
    expect(window.title).toBe('title:/p/ledger (running)');
    workbench?.emit(runEvent('run-finished', { finishedAt: 2_000, status: 'done' }));
    expect(window.title).toBe('title:/p/ledger');
  });

  it("hands its watchers the folder's events, and tells them when the folder is let go", async () => {
    const seen: string[] = [];
    const watcher: SessionWatcher = {
      event: (event, folder) => void seen.push(`${event.type}@${folder}`),
      released: () => void seen.push('released'),
    };
    const { session, opened } = fakeSession({ watchers: () => [watcher] });
    await session.open('/p/a');
    opened.get('/p/a')?.emit(warning(1));
    await session.open('/p/b');
    opened.get('/p/b')?.emit(warning(2));
    await session.close();
    await session.close();
    expect(seen).toEqual(['warning@/p/a', 'released', 'warning@/p/b', 'released']);
  });

  it('keeps the page and the other watchers informed when one watcher fails', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const later = { event: vi.fn(), released: vi.fn() };
    const failing: SessionWatcher = {
      event: () => {
        throw new Error('no taskbar');
      },
      released: () => {},
    };
    const { window, session, opened } = fakeSession({ watchers: () => [failing, later] });
    await session.open('/p/a');
    opened.get('/p/a')?.emit(warning(1));
    expect(window.sent).toHaveLength(1);
    expect(later.event).toHaveBeenCalledWith(warning(1), '/p/a');
    expect(logged).toHaveBeenCalledOnce();
    logged.mockRestore();
  });
});
