import { readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CommandLauncher, type LaunchedProcess, type LaunchOptions } from '../../../engine/process/commandLauncher.js';
import { inProcessLauncher, nodeLauncherAt } from '../../../engine/process/launcherChannel.js';
import type { LauncherReply } from '../../../engine/process/launcherProgram.js';
import { CommandCancelledError, CommandLostError, CommandStartError, runShellCommand } from '../../../engine/process/runShellCommand.js';
import { within } from '../../support/within.js';
import { useEngineChildren } from '../../support/engineChild.js';
import { useTempFolders } from '../../support/tempFolder.js';
import { isGone, shellCommandOptions, survivors, useProcessCleanup, watchedLog } from '../../support/processProbe.js';

/** A shell running `command` in `root`, as runShellCommand asks for one. */
const shell = (root: string, command: string) => ({ file: '/bin/sh', args: ['-c', command], cwd: root, env: { PATH: '/usr/bin:/bin' }, detached: true, windowsVerbatimArguments: false });
/** Ten seconds for a start to be made; none comes late in these tests, and one that did would be let go. */
const tenSeconds: LaunchOptions = { startLimitMs: 10_000, onLateStart: (late) => late?.release() };

/** The pid of the process that started the command's shell: its first line of output. */
async function parentOfShell(root: string): Promise<number> {
  const { output } = await runShellCommand(shellCommandOptions(root, 'echo $PPID'));
  return Number(output.trim());
}

describe.skipIf(process.platform === 'win32')('the command launcher', () => {
  const tempFolder = useTempFolders();
  const cleanUp = useProcessCleanup();

  it('starts every command from one long-lived launcher process, never by forking the engine', async () => {
    const root = await tempFolder();
    const parents = [await parentOfShell(root), await parentOfShell(root), await parentOfShell(root)];
    expect(new Set(parents).size).toBe(1);
    const [launcher] = parents as [number];
    expect(launcher).not.toBe(process.pid);
    // A Node process of its own, with nothing of the engine's environment (no secret, no loader).
    const commandLine = (await readFile(`/proc/${launcher}/cmdline`, 'utf8')).split('\0');
    expect(commandLine.filter(Boolean)).toEqual([process.execPath, '-']);
    const environment = (await readFile(`/proc/${launcher}/environ`, 'utf8')).split('\0').filter(Boolean);
    expect(environment.map((entry) => entry.split('=')[0]).sort()).toEqual(['NODE_CHANNEL_FD', 'NODE_CHANNEL_SERIALIZATION_MODE']);
  });

  it('relays output of any size whole and in order', async () => {
    const root = await tempFolder();
    const outcome = await runShellCommand(shellCommandOptions(root, 'seq 1 400000; echo end', { output: { headBytes: 100, tailBytes: 100 } }));
    expect(outcome.exitCode).toBe(0);
    const numbersBytes = Array.from({ length: 400_000 }, (_, index) => String(index + 1).length + 1).reduce((sum, bytes) => sum + bytes);
    expect(outcome.outputBytes).toBe(numbersBytes + 'end\n'.length);
    expect(outcome.output.trimEnd().split('\n').slice(-2)).toEqual(['400000', 'end']);
  });

  it('when the launcher dies mid-command, says so, stops the command, and starts a new launcher for the next', async () => {
    const root = cleanUp(await tempFolder());
    const watched = watchedLog();
    const running = runShellCommand(shellCommandOptions(root, 'echo $PPID; echo $$ > shell.pid; sleep 300 & echo $! > background.pid; echo ready; wait', { log: watched.log }));
    await watched.seen('ready');
    const launcher = Number(watched.lines[0]);
    process.kill(launcher, 'SIGKILL');

    const error = await running.then(
      () => null,
      (failure: unknown) => failure,
    );
    expect(error).toBeInstanceOf(CommandLostError);
    expect((error as Error).message).toMatch(/command launcher stopped while the command ran \(it was ended by signal SIGKILL\)/);
    expect(await survivors(root)).toEqual({});
    expect(isGone(launcher)).toBe(true);

    const next = await parentOfShell(root);
    expect(next).not.toBe(launcher);
    expect(next).not.toBe(process.pid);
  });
});

describe.skipIf(process.platform === 'win32')('an engine process with a launcher', () => {
  const tempFolder = useTempFolders();
  const startEngine = useEngineChildren(tempFolder);

  it('exits by itself once nothing is left to do: after a command, and after one that could not start', async () => {
    const root = await tempFolder();
    const engine = await startEngine(
      `
const { runShellCommand } = await import(new URL('./process/runShellCommand.ts', process.env.ENGINE_URL).href);
const run = (cwd) => runShellCommand({ command: 'echo ran', cwd, env: { PATH: '/usr/bin:/bin' }, timeoutMs: 10_000, signal: new AbortController().signal, log: () => {}, output: { headBytes: 1024, tailBytes: 1024 } });
console.log((await run(process.argv[2])).output.trim());
console.log(await run(process.argv[2] + '/missing').then(() => 'started', (error) => error.name));
`,
      [root],
    );
    // Nothing keeps it alive: not the launcher's channel, held while a command was waited for.
    const { code, stdout } = await engine.exited;
    expect(code).toBe(0);
    expect(stdout.trim().split('\n')).toEqual(['ran', 'CommandStartError']);
  });
});

describe.skipIf(process.platform === 'win32')('a launcher that stops answering', () => {
  const tempFolder = useTempFolders();
  const cleanUp = useProcessCleanup();

  /** The pids of starts made after they were given up (-1: perhaps made by a launcher that died); each is stopped. */
  const lateStarts: number[] = [];
  const stopLate = (late: LaunchedProcess | null) => {
    lateStarts.push(late?.pid ?? -1);
    if (!late) return;
    process.kill(-late.pid, 'SIGKILL');
    late.release();
  };

  /** A launcher of its own, and its pid (it started a command that printed its parent). */
  async function ownLauncher(root: string): Promise<{ launcher: CommandLauncher; pid: number }> {
    const launcher = new CommandLauncher(() => () => nodeLauncherAt(process.execPath));
    const started = await launcher.launch(shell(root, 'echo $PPID'), { startLimitMs: 10_000, onLateStart: stopLate });
    const chunks: Buffer[] = [];
    started.onOutput((_stream, chunk) => chunks.push(chunk));
    await started.outputClosed;
    return { launcher, pid: Number(Buffer.concat(chunks).toString().trim()) };
  }

  it('holds no command past its timeout or its cancel', async () => {
    const root = cleanUp(await tempFolder());
    const launcher = await parentOfShell(root);
    process.kill(launcher, 'SIGSTOP');
    try {
      const timedOut = await runShellCommand(shellCommandOptions(root, 'echo $$ > late.pid; exec sleep 300', { timeoutMs: 500 })).catch((error: unknown) => error);
      expect(timedOut).toBeInstanceOf(CommandStartError);
      expect((timedOut as Error).message).toMatch(/did not start it within its timeout \(0\.5 seconds\)/);

      const abort = new AbortController();
      const cancelled = runShellCommand(shellCommandOptions(root, 'true', { signal: abort.signal })).catch((error: unknown) => error);
      abort.abort();
      expect(await cancelled).toBeInstanceOf(CommandCancelledError);
    } finally {
      process.kill(launcher, 'SIGCONT');
    }
    expect(await parentOfShell(root)).toBe(launcher);
  });

  it('never makes a start that was cancelled, or that comes after its deadline, once it answers again', async () => {
    const root = cleanUp(await tempFolder());
    const { launcher, pid } = await ownLauncher(root);
    process.kill(pid, 'SIGSTOP');
    let cancelled: Promise<unknown>;
    try {
      const deadline = Date.now() + 200;
      const late = launcher.launch(shell(root, 'echo late > late.txt'), { startLimitMs: 200, onLateStart: stopLate }).catch((error: unknown) => error);
      const abort = new AbortController();
      cancelled = launcher.launch(shell(root, 'echo ran > ran.txt'), { startLimitMs: 10_000, signal: abort.signal, onLateStart: stopLate }).catch((error: unknown) => error);
      abort.abort();
      // The deadline passes while the launcher is stopped; the engine gave the start up at it.
      expect(await late).toMatchObject({ name: 'LaunchError', code: 'ETIMEDOUT' });
      expect(Date.now()).toBeGreaterThanOrEqual(deadline);
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    expect(await cancelled).toMatchObject({ name: 'LaunchError', code: 'ECANCELED' });
    // Ordered behind them, a start made after is answered once they were.
    await launcher.launch(shell(root, 'true'), { startLimitMs: 10_000, onLateStart: stopLate });
    expect(lateStarts).toEqual([]);
    expect(await readdir(root)).not.toContain('late.txt');
    expect(await readdir(root)).not.toContain('ran.txt');
  });
  it('hands over a start given up whose launcher then dies without answering, to be looked for by its marker', async () => {
    const root = cleanUp(await tempFolder());
    const { launcher, pid } = await ownLauncher(root);
    const before = lateStarts.length;
    process.kill(pid, 'SIGSTOP');
    const givenUp = launcher.launch(shell(root, 'true'), { startLimitMs: 100, onLateStart: stopLate }).catch((error: unknown) => error);
    expect(await givenUp).toMatchObject({ name: 'LaunchError', code: 'ETIMEDOUT' });
    expect(lateStarts).toHaveLength(before);
    // Today's main forgot it: nobody was told the launcher might have made it before it died.
    process.kill(pid, 'SIGKILL');
    await within(5_000, () => lateStarts.length, (count) => count > before);
    expect(lateStarts.slice(before)).toEqual([-1]);
  });
});

describe.skipIf(process.platform !== 'linux')('a command that floods its output', () => {
  const tempFolder = useTempFolders();
  const cleanUp = useProcessCleanup();

  it('is read no faster than the engine takes it: the launcher holds about a window of it, not the flood', async () => {
    const root = cleanUp(await tempFolder());
    const launcher = await parentOfShell(root);
    const outcome = await runShellCommand(shellCommandOptions(root, 'echo $$ > shell.pid; exec yes flood', { timeoutMs: 2_000 }));
    expect(outcome).toMatchObject({ stoppedBy: 'timeout' });
    expect(outcome.outputBytes).toBeGreaterThan(1 << 20);
    const peakKb = Number(/VmHWM:\s+(\d+) kB/.exec(await readFile(`/proc/${launcher}/status`, 'utf8'))?.[1]);
    // Unread output once piled up in the launcher, hundreds of MB in two seconds.
    expect(peakKb).toBeLessThan(200 * 1024);
  });
});

describe.skipIf(process.platform !== 'linux')('a launcher out of file descriptors', () => {
  const tempFolder = useTempFolders();

  it('answers that it could not start the command, and goes on serving', async () => {
    const root = await tempFolder();
    // Node with few descriptors: enough to run, too few for a child's pipes.
    const node = path.join(root, 'few-descriptors-node');
    await writeFile(node, `#!/bin/sh\nulimit -n 21\nexec '${process.execPath}' "$@"\n`, { mode: 0o755 });
    const launcher = new CommandLauncher(() => () => nodeLauncherAt(node));
    for (let attempt = 0; attempt < 2; attempt += 1) {
      expect(await launcher.launch(shell(root, 'true'), tenSeconds).catch((error: unknown) => error)).toMatchObject({ name: 'LaunchError', code: 'EMFILE' });
    }
  });
});

describe.skipIf(process.platform === 'win32')('a launcher that cannot run', () => {
  const tempFolder = useTempFolders();

  it('leaves commands to start from the engine’s own process, the first included', async () => {
    const root = await tempFolder();
    const launcher = new CommandLauncher(() => () => nodeLauncherAt(`${root}/no-such-node`));
    const run = async () => {
      const started = await launcher.launch(shell(root, 'echo $PPID'), tenSeconds);
      const chunks: Buffer[] = [];
      started.onOutput((_stream, chunk) => chunks.push(chunk));
      await started.exited;
      await started.outputClosed;
      return Number(Buffer.concat(chunks).toString().trim());
    };
    expect(await run()).toBe(process.pid);
    expect(await run()).toBe(process.pid);
  });
});

describe.skipIf(process.platform === 'win32')('the in-process launcher', () => {
  const tempFolder = useTempFolders();

  /** Every reply about one request, until the process has exited and its output closed, or it failed to start. */
  function repliesTo(request: { cwd: string; command: string }): Promise<LauncherReply[]> {
    const channel = inProcessLauncher();
    const replies: LauncherReply[] = [];
    return new Promise((resolve) => {
      channel.onReply((reply) => {
        replies.push(reply);
        const events = replies.map((each) => each.event);
        if (reply.event === 'error' || (events.includes('exit') && events.includes('closed'))) resolve(replies);
      });
      channel.post({ op: 'start', id: 7, notAfter: Date.now() + 10_000, ...shell(request.cwd, request.command) });
    });
  }

  it('runs the same program in the engine’s process: start, output, exit and close, in order', async () => {
    const root = await tempFolder();
    const replies = await repliesTo({ cwd: root, command: 'echo $PPID; exit 4' });
    const [spawned, ...rest] = replies;
    expect(spawned).toMatchObject({ id: 7, event: 'spawn' });
    const output = rest.flatMap((reply) => (reply.event === 'output' ? [Buffer.from(reply.chunk).toString()] : [])).join('');
    expect(Number(output.trim())).toBe(process.pid);
    expect(rest.find((reply) => reply.event === 'exit')).toMatchObject({ code: 4, signal: null });
  });

  it('answers a process that cannot start with the system’s error code', async () => {
    const root = await tempFolder();
    const replies = await repliesTo({ cwd: `${root}/missing`, command: 'true' });
    expect(replies).toEqual([{ id: 7, event: 'error', code: 'ENOENT', message: expect.stringContaining('ENOENT') }]);
  });
});
