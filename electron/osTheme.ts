import { BrowserWindow, nativeTheme } from 'electron';

/** The page's own background (--bg in renderer/src/styles.css), so nothing of another colour shows before it paints. */
const pageBackground = { light: '#f7f7f8', dark: '#16181c' };

export function windowBackground(): string {
  return nativeTheme.shouldUseDarkColors ? pageBackground.dark : pageBackground.light;
}

type ThemedWindow = Pick<BrowserWindow, 'setBackgroundColor' | 'isDestroyed'>;

/**
 * Light or dark follows the OS (the page follows through prefers-color-scheme); when the OS switches,
 * every window's background switches with it. Returns a function that stops following.
 */
export function followOsTheme(windows: () => ThemedWindow[] = () => BrowserWindow.getAllWindows()): () => void {
  nativeTheme.themeSource = 'system';
  const repaint = () => {
    for (const window of windows()) if (!window.isDestroyed()) window.setBackgroundColor(windowBackground());
  };
  nativeTheme.on('updated', repaint);
  return () => {
    nativeTheme.off('updated', repaint);
  };
}
