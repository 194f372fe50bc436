import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { startWatchdog } from '../../../engine/process/commandWatchdog.js';
import { useTempFolders } from '../../support/tempFolder.js';
import { useEngineChildren } from '../../support/engineChild.js';
import { recordedPids, survivors, useProcessCleanup } from '../../support/processProbe.js';
import { within } from '../../support/within.js';

/** An engine that starts one command (a background sleep, a double-forked daemon, then waits) and keeps running. */
const engineWithCommand = `
const { runShellCommand } = await import(new URL('./process/runShellCommand.ts', process.env.ENGINE_URL).href);
const command = [
  'echo $$ > shell.pid',
  'sleep 300 & echo $! > background.pid',
  "(setsid sh -c 'echo $$ > daemon.pid; exec sleep 300' &)",
  'while [ ! -s daemon.pid ]; do sleep 0.05; done',
  'echo ready',
  'wait',
].join('; ');
void runShellCommand({
  command,
  cwd: process.argv[2],
  env: { PATH: process.env.PATH },
  timeoutMs: 600_000,
  signal: new AbortController().signal,
  log: (line) => line.includes('ready') && console.log('ready'),
  output: { headBytes: 1024, tailBytes: 1024 },
});
setInterval(() => {}, 1000);
`;

describe.skipIf(process.platform === 'win32')('the command watchdog', () => {
  const tempFolder = useTempFolders('rpi-watchdog-');
  const startEngine = useEngineChildren(tempFolder);
  const cleanUp = useProcessCleanup();

  it('ends every process of a running command when its engine is killed with SIGKILL, daemons that left the session included', async () => {
    const root = cleanUp(await tempFolder());
    const engine = await startEngine(engineWithCommand, [root]);
    await engine.waitForOutput('ready');
    expect(Object.keys(await recordedPids(root)).sort()).toEqual(['background', 'daemon', 'shell']);
    expect(await survivors(root)).toEqual(await recordedPids(root));

    engine.kill('SIGKILL');
    await engine.exited;

    expect(await within(10_000, () => survivors(root), (left) => Object.keys(left).length === 0)).toEqual({});
  });
});

describe.skipIf(process.platform === 'win32')('the command watchdog’s list of command groups', () => {
  // Each sleep is detached, so it leads a process group of its own, as a command's shell does.
  it('ends, when the engine goes, the groups still listed (by their group, as the machine’s /bin/sh kills one) and none whose command ended', async () => {
    const groups = Array.from({ length: 3 }, () => spawn('sleep', ['300'], { detached: true, stdio: 'ignore' }));
    const exits = groups.map((child) => new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal))));
    try {
      const [ended, listed, alsoEnded] = groups.map((child) => child.pid!);
      const watchdog = startWatchdog();
      const watchdogGone = new Promise<void>((resolve) => watchdog.once('exit', () => resolve()));
      watchdog.stdin.write(`+${ended}\n+${listed}\n+${alsoEnded}\n-${ended}\n-${alsoEnded}\n-999999\n`);
      // Its stdin closing is the engine going away.
      watchdog.stdin.end();
      const stillRunning = new Promise<'still running'>((resolve) => setTimeout(() => resolve('still running'), 15_000).unref());
      expect(await Promise.race([exits[1]!, stillRunning])).toBe('SIGTERM');
      await watchdogGone;
      // Past its SIGKILL round too, the groups whose commands ended are untouched.
      expect([groups[0]!.exitCode, groups[0]!.signalCode, groups[2]!.exitCode, groups[2]!.signalCode]).toEqual([null, null, null, null]);
    } finally {
      for (const child of groups) child.kill('SIGKILL');
      await Promise.all(exits);
    }
  });
});
