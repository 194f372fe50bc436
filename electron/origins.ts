/** The custom scheme the packaged renderer is served from; see appProtocol.ts. */
export const appScheme = 'app';
export const appHost = 'renderer';
export const appEntryUrl = `${appScheme}://${appHost}/index.html`;

/**
 * Which pages count as ours: the packaged renderer on app://renderer, plus the vite dev server when the
 * app runs under `npm run dev`. Everything else is foreign: it may not navigate our windows or use IPC.
 */
export interface TrustedOrigins {
  /** The URL a new window loads. */
  readonly entryUrl: string;
  /** The dev server's origin (e.g. http://localhost:5173), or null in a packaged build. */
  readonly devOrigin: string | null;
  isTrusted(url: string): boolean;
}

export function trustedOrigins(devServerUrl?: string): TrustedOrigins {
  const devOrigin = devServerUrl ? new URL(devServerUrl).origin : null;
  return {
    entryUrl: devServerUrl ?? appEntryUrl,
    devOrigin,
    isTrusted(url) {
      const parsed = parseUrl(url);
      if (!parsed) return false;
      // Node's URL reports origin "null" for schemes it does not know, so compare scheme and host.
      if (parsed.protocol === `${appScheme}:` && parsed.host === appHost) return true;
      return devOrigin !== null && parsed.origin === devOrigin;
    },
  };
}

function parseUrl(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}
