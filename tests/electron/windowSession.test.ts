import { describe, expect, it } from 'vitest';
import { fakeSession, warning } from './fakes.js';

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
});
