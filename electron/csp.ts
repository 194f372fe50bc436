import type { Session } from 'electron';
import { rendererCsp } from '../engine/index.js';

/**
 * The policy for pages from the vite dev server. It relaxes only what vite needs: the inline React
 * refresh preamble, the <style> tags its CSS hot reload injects, and the HMR websocket.
 */
export function devCsp(devOrigin: string): string {
  const socket = devOrigin.replace(/^http/, 'ws');
  return rendererCsp
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
