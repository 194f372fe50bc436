import { EventEmitter } from 'node:events';
import type { Session, WebContents } from 'electron';
import { beforeEach, describe, expect, it, vi } from 'vitest';

const shell = vi.hoisted(() => ({ openExternal: vi.fn(async (_url: string) => undefined) }));
vi.mock('electron', () => ({ shell }));

const { denyAllPermissions, guardWebContents } = await import('../../electron/contentGuards.js');
const { trustedOrigins } = await import('../../electron/origins.js');

type OpenHandler = (details: { url: string }) => { action: string };

class FakeContents extends EventEmitter {
  openHandler: OpenHandler | null = null;
  setWindowOpenHandler(handler: OpenHandler) {
    this.openHandler = handler;
  }
  /** Emits a navigation-style event and says whether a guard prevented it. */
  attempt(name: string, url: string): boolean {
    let prevented = false;
    this.emit(name, { url, preventDefault: () => (prevented = true) });
    return prevented;
  }
}

function guarded(devServerUrl?: string): FakeContents {
  const contents = new FakeContents();
  guardWebContents(contents as unknown as WebContents, trustedOrigins(devServerUrl).isTrusted);
  return contents;
}

beforeEach(() => shell.openExternal.mockClear());

describe('navigation guard', () => {
  it('keeps navigation within our own pages', () => {
    const contents = guarded();
    expect(contents.attempt('will-navigate', 'app://renderer/index.html')).toBe(false);
    expect(contents.attempt('will-navigate', 'https://evil.example/phish')).toBe(true);
    expect(contents.attempt('will-navigate', 'file:///etc/passwd')).toBe(true);
    expect(contents.attempt('will-navigate', 'app://elsewhere/index.html')).toBe(true);
  });

  it('opens a web link in the OS browser, and nothing else', () => {
    const contents = guarded();
    contents.attempt('will-navigate', 'https://docs.example/guide');
    contents.attempt('will-navigate', 'file:///etc/passwd');
    contents.attempt('will-navigate', 'javascript:alert(1)');
    expect(shell.openExternal.mock.calls).toEqual([['https://docs.example/guide']]);
  });

  it('refuses redirects to foreign pages', () => {
    const contents = guarded();
    expect(contents.attempt('will-redirect', 'https://evil.example/')).toBe(true);
    expect(contents.attempt('will-redirect', 'app://renderer/index.html')).toBe(false);
    expect(shell.openExternal).not.toHaveBeenCalled();
  });

  it('trusts the dev server only when one is configured', () => {
    expect(guarded().attempt('will-navigate', 'http://localhost:5173/')).toBe(true);
    expect(guarded('http://localhost:5173/').attempt('will-navigate', 'http://localhost:5173/index.html')).toBe(false);
    expect(guarded('http://localhost:5173/').attempt('will-navigate', 'http://localhost:5174/')).toBe(true);
  });

  it('denies every new window, handing web links to the OS browser', () => {
    const contents = guarded();
    expect(contents.openHandler?.({ url: 'https://example.com/' })).toEqual({ action: 'deny' });
    expect(contents.openHandler?.({ url: 'app://renderer/index.html' })).toEqual({ action: 'deny' });
    expect(contents.openHandler?.({ url: 'smb://share/payload' })).toEqual({ action: 'deny' });
    expect(shell.openExternal.mock.calls).toEqual([['https://example.com/']]);
  });

  it('opens http and https links from target=_blank in the OS browser', () => {
    const contents = guarded();
    expect(contents.openHandler?.({ url: 'http://localhost:3000/docs' })).toEqual({ action: 'deny' });
    expect(contents.openHandler?.({ url: 'https://example.com/a?b=c#d' })).toEqual({ action: 'deny' });
    expect(shell.openExternal.mock.calls).toEqual([['http://localhost:3000/docs'], ['https://example.com/a?b=c#d']]);
  });

  it.each([
    'file:///etc/passwd',
    'javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox(1)',
    'mailto:ada@example.com',
    'ms-settings:privacy',
    '//example.com/relative',
    'not a url',
  ])('never hands %s to the OS', (url) => {
    expect(guarded().openHandler?.({ url })).toEqual({ action: 'deny' });
    expect(shell.openExternal).not.toHaveBeenCalled();
  });

  it('reports, without throwing, a link the OS browser could not open', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    shell.openExternal.mockRejectedValueOnce(new Error('no browser'));
    expect(guarded().openHandler?.({ url: 'https://example.com/' })).toEqual({ action: 'deny' });
    await vi.waitFor(() => expect(logged).toHaveBeenCalledWith('Could not open https://example.com/ in the browser:', expect.any(Error)));
    logged.mockRestore();
  });

  it('prevents attaching webviews', () => {
    expect(guarded().attempt('will-attach-webview', 'app://renderer/index.html')).toBe(true);
  });
});

describe('denyAllPermissions', () => {
  it('answers every permission request and check with no', () => {
    let request: ((contents: unknown, permission: string, callback: (granted: boolean) => void) => void) | undefined;
    let check: (() => boolean) | undefined;
    const session = {
      setPermissionRequestHandler: (handler: typeof request) => (request = handler),
      setPermissionCheckHandler: (handler: typeof check) => (check = handler),
    };
    denyAllPermissions(session as unknown as Session);
    const granted = vi.fn();
    request?.({}, 'media', granted);
    expect(granted).toHaveBeenCalledWith(false);
    expect(check?.()).toBe(false);
  });
});
