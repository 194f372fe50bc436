import { describe, expect, it } from 'vitest';
import { takeAccessToken, type TokenSources } from '../../../renderer/src/bridge/accessToken.js';

/** A tab: its address bar and its sessionStorage, which survives reloads but no other origin sees. */
function tab(address: string) {
  const url = new URL(address);
  const stored = new Map<string, string>();
  const sources: TokenSources = {
    location: url,
    history: { state: null, replaceState: (_state, _unused, next) => (url.href = new URL(String(next), url).href) },
    storage: { getItem: (key) => stored.get(key) ?? null, setItem: (key, value) => void stored.set(key, value) },
  };
  const reload = (next: string): TokenSources => {
    url.href = next;
    return sources;
  };
  return { url, sources, reload };
}

describe('takeAccessToken', () => {
  it('takes the token from the fragment of the printed URL and clears it from the address bar', () => {
    const page = tab('http://127.0.0.1:8765/#token=abc-123_XYZ');
    expect(takeAccessToken(page.sources)).toBe('abc-123_XYZ');
    expect(page.url.href).toBe('http://127.0.0.1:8765/');
  });

  it('finds it again after a reload, from this tab’s session storage', () => {
    const page = tab('http://127.0.0.1:8765/#token=abc');
    takeAccessToken(page.sources);
    expect(takeAccessToken(page.reload('http://127.0.0.1:8765/'))).toBe('abc');
  });

  it('takes a new URL’s token over an older one (the host was restarted)', () => {
    const page = tab('http://127.0.0.1:8765/#token=old');
    takeAccessToken(page.sources);
    expect(takeAccessToken(page.reload('http://127.0.0.1:8765/#token=new'))).toBe('new');
    expect(takeAccessToken(page.reload('http://127.0.0.1:8765/'))).toBe('new');
  });

  it('is null for a page opened without it', () => {
    expect(takeAccessToken(tab('http://127.0.0.1:8765/').sources)).toBeNull();
  });
});
