import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';

const nativeTheme = vi.hoisted(() => {
  const listeners = new Set<() => void>();
  return {
    themeSource: 'light' as string,
    shouldUseDarkColors: false,
    on: (_name: 'updated', listener: () => void) => void listeners.add(listener),
    off: (_name: 'updated', listener: () => void) => void listeners.delete(listener),
    /** The OS switching between light and dark. */
    switchTo(dark: boolean) {
      this.shouldUseDarkColors = dark;
      listeners.forEach((listener) => listener());
    },
  };
});
vi.mock('electron', () => ({ nativeTheme, BrowserWindow: { getAllWindows: () => [] } }));

const { followOsTheme, windowBackground } = await import('../../electron/osTheme.js');

class ThemedWindow {
  readonly backgrounds: string[] = [];
  constructor(private readonly destroyed = false) {}
  setBackgroundColor(color: string) {
    this.backgrounds.push(color);
  }
  isDestroyed() {
    return this.destroyed;
  }
}

describe('following the OS theme', () => {
  it("paints windows with the page's own background, light or dark", async () => {
    const css = await readFile(path.resolve(import.meta.dirname, '../../renderer/src/styles.css'), 'utf8');
    const [light, dark] = [...css.matchAll(/--bg:\s*(#[0-9a-f]{6})/gi)].map((match) => match[1]);
    nativeTheme.shouldUseDarkColors = false;
    expect(windowBackground()).toBe(light);
    nativeTheme.shouldUseDarkColors = true;
    expect(windowBackground()).toBe(dark);
  });

  it('lets the OS decide, and repaints open windows when it switches', () => {
    const [open, closed] = [new ThemedWindow(), new ThemedWindow(true)];
    nativeTheme.shouldUseDarkColors = false;
    const stop = followOsTheme(() => [open, closed]);
    expect(nativeTheme.themeSource).toBe('system');
    nativeTheme.switchTo(true);
    nativeTheme.switchTo(false);
    stop();
    nativeTheme.switchTo(true);
    expect(open.backgrounds).toEqual(['#16181c', '#f7f7f8']);
    expect(closed.backgrounds).toEqual([]);
  });
});
