import type { Session } from 'electron';

/** The Content-Security-Policy of the packaged renderer: nothing but our own files, no inline code. */
export const appCsp = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'none'",
].join('; ');

/**
 * The policy for pages from the vite dev server. It relaxes only what vite needs: the inline React
 * refresh preamble, the <style> tags its CSS hot reload injects, and the HMR websocket.
 */
export function devCsp(devOrigin: string): string {
  const socket = devOrigin.replace(/^http/, 'ws');
  return appCsp
    .replace("script-src 'self'", "script-src 'self' 'unsafe-inline'")
    .replace("style-src 'self'", "style-src 'self' 'unsafe-inline'")
    .replace("connect-src 'self'", `connect-src 'self' ${socket}`);
}

/** Adds the dev policy to pages from the vite dev server, which sends no CSP of its own. */
export function applyDevCsp(session: Session, devOrigin: string): void {
  session.webRequest.onHeadersReceived({ urls: [`${devOrigin}/*`] }, (details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [devCsp(devOrigin)] } });
  });
}
