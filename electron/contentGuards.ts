import { shell, type Session, type WebContents } from 'electron';

/**
 * Locks down one webContents: it may only navigate within our own pages, never open windows or attach
 * webviews. Web links the user clicks open in the OS browser instead. Applied to every webContents
 * the app creates (see main.ts), so a compromised page cannot leave the sandbox by navigating.
 */
export function guardWebContents(contents: WebContents, isTrusted: (url: string) => boolean): void {
  const keepInside = (event: { url: string; preventDefault(): void }) => {
    if (isTrusted(event.url)) return;
    event.preventDefault();
    openInBrowser(event.url);
  };
  contents.on('will-navigate', (event) => keepInside(event));
  contents.on('will-redirect', (event) => {
    if (!isTrusted(event.url)) event.preventDefault();
  });
  contents.setWindowOpenHandler(({ url }) => {
    openInBrowser(url);
    return { action: 'deny' };
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
}

/** The workbench needs no camera, microphone, notifications or other browser permission. */
export function denyAllPermissions(session: Session): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
}

function openInBrowser(url: string): void {
  if (!isWebUrl(url)) return;
  shell.openExternal(url).catch((error: unknown) => {
    console.error(`Could not open ${url} in the browser:`, error);
  });
}

function isWebUrl(url: string): boolean {
  try {
    const { protocol } = new URL(url);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}
