// The command launcher's process: an Electron utility process (started by utilityLauncher.ts) in which
// every command the agent runs is started, so the main process, where the engine runs, is never forked
// for one. Its channel to the engine is the utility process's parentPort.
import * as childProcess from 'node:child_process';
import { serveLaunches, type LauncherRequest } from '../engine/launcherEntry.js';

const { parentPort } = process as unknown as { parentPort: Electron.ParentPort };

serveLaunches(
  {
    send: (reply) => parentPort.postMessage(reply),
    onRequest: (listener) => parentPort.on('message', (event) => listener(event.data as LauncherRequest)),
  },
  childProcess,
);
