import { utilityProcess } from 'electron';
import type { LauncherStart } from '../engine/index.js';

/**
 * Starts the engine's command launcher as an Electron utility process running `modulePath`
 * (electron/commandLauncher.ts, built beside main). Electron's executable cannot run a Node launcher from
 * source text (the runAsNode fuse is off), and without a launcher the engine would start commands by
 * forking the main process. Chromium ends the utility process with the app.
 */
export function utilityLauncher(modulePath: string): LauncherStart {
  return () => {
    const child = utilityProcess.fork(modulePath, [], { serviceName: 'RPI Workbench command launcher', stdio: 'ignore' });
    let gone: ((why: string, ranNothing: boolean) => void) | null = null;
    let ran = false;
    child.once('spawn', () => (ran = true));
    child.once('exit', (code) => {
      const listener = gone;
      gone = null;
      listener?.(`it exited with code ${code}`, !ran);
    });
    return {
      post: (request) => child.postMessage(request),
      onReply: (listener) => child.on('message', listener),
      onGone: (listener) => (gone = listener),
      // The app's windows keep the main process alive; the launcher need not.
      hold: () => {},
      stop: () => child.kill(),
    };
  };
}
