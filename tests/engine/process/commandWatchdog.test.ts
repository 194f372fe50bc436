import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { startWatchdog } from '../../../engine/process/commandWatchdog.js';
import { useTempFolders } from '../../support/tempFolder.js';
import { useEngineChildren } from '../../support/engineChild.js';
import { isGone, recordedPids, survivors, useProcessCleanup } from '../../support/processProbe.js';
import { within } from '../../support/within.js';

/** An engine that starts one command (a background sleep, a double-forked daemon, then waits) and keeps running. */
const engineWithCommand = `
const { runShellCommand } = await import(new URL('./process/runShellCommand.ts', process.env.ENGINE_URL).href);
const command = [
  'echo $$ > shell.pid',
  'echo $PPID > launcher.pid',
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

  it('ends every process of a running command, and the launcher that started it, when its engine is killed with SIGKILL, daemons that left the session included', async () => {
    const root = cleanUp(await tempFolder());
    const engine = await startEngine(engineWithCommand, [root]);
    await engine.waitForOutput('ready');
    expect(Object.keys(await recordedPids(root)).sort()).toEqual(['background', 'daemon', 'launcher', 'shell']);
    expect(await survivors(root)).toEqual(await recordedPids(root));

    engine.kill('SIGKILL');
    await engine.exited;

    expect(await within(10_000, () => survivors(root), (left) => Object.keys(left).length === 0)).toEqual({});
  });
});

describe.skipIf(process.platform === 'win32')('the command watchdog’s list of command groups', () => {
  /**
   * A command as the engine starts one: detached, so its shell leads a process group of its own; this one
   * starts a background sleep in its group and prints its pid, then becomes a sleep itself.
   */
  async function command(): Promise<{ child: ChildProcess; exited: Promise<NodeJS.Signals | null>; background: number }> {
    const child = spawn('/bin/sh', ['-c', 'sleep 300 & echo $!; exec sleep 300'], { detached: true, stdio: ['ignore', 'pipe', 'ignore'] });
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
    const [line] = (await once(child.stdout!, 'data')) as [Buffer];
    return { child, exited, background: Number(line.toString().trim()) };
  }

  /** Whatever is left of a group this test started. */
  function endGroup(pgid: number): void {
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch {
      // nothing left of it
    }
  }

  /** Tells a watchdog `lines`, then closes its stdin, as the engine's death does; resolves with how it ended. */
  async function watchdogTold(lines: string): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    const watchdog = startWatchdog();
    watchdog.stdin.end(lines);
    const [code, signal] = (await once(watchdog, 'exit')) as [number | null, NodeJS.Signals | null];
    return { code, signal };
  }

  it('ends, when the engine goes, the groups still listed (every process of the group, by the group) and none whose command ended', async () => {
    const commands = await Promise.all([command(), command(), command()]);
    try {
      const [ended, listed, alsoEnded] = commands.map(({ child }) => child.pid!);
      const gone = watchdogTold(`+${ended}\n+${listed}\n+${alsoEnded}\n-${ended}\n-${alsoEnded}\n-999999\n`);
      const stillRunning = new Promise<'still running'>((resolve) => setTimeout(() => resolve('still running'), 15_000).unref());
      expect(await Promise.race([commands[1]!.exited, stillRunning])).toBe('SIGTERM');
      // Not a child of this process: it is ended with its group, or not at all.
      expect(await within(10_000, () => isGone(commands[1]!.background), Boolean)).toBe(true);
      expect(await gone).toEqual({ code: 0, signal: null });
      // Past its SIGKILL round too, the groups whose commands ended are untouched.
      expect([0, 2].flatMap((index) => [commands[index]!.child.exitCode, commands[index]!.child.signalCode, isGone(commands[index]!.background)])).toEqual([null, null, false, null, null, false]);
    } finally {
      for (const { child } of commands) endGroup(child.pid!);
      await Promise.all(commands.map(({ exited }) => exited));
    }
  });

  it('ignores a line that is not a group it may end: its own group (0) would end the watchdog itself', async () => {
    const listed = await command();
    try {
      expect(await watchdogTold(`+0\n+x\n+\n+${listed.child.pid!}\n`)).toEqual({ code: 0, signal: null });
      expect(await listed.exited).toBe('SIGTERM');
    } finally {
      endGroup(listed.child.pid!);
    }
  });
});
