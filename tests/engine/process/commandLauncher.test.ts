import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { CommandLauncher } from '../../../engine/process/commandLauncher.js';
import { inProcessLauncher, nodeLauncherAt } from '../../../engine/process/launcherChannel.js';
import type { LauncherReply } from '../../../engine/process/launcherProgram.js';
import { CommandCancelledError, CommandLostError, CommandStartError, runShellCommand, type RunShellCommandOptions } from '../../../engine/process/runShellCommand.js';
import { within } from '../../support/within.js';
import { useTempFolders } from '../../support/tempFolder.js';
import { isGone, survivors, useProcessCleanup, watchedLog } from '../../support/processProbe.js';

function options(cwd: string, command: string, overrides: Partial<RunShellCommandOptions> = {}): RunShellCommandOptions {
  return {
    command,
    cwd,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    timeoutMs: 20_000,
    signal: new AbortController().signal,
    log: () => {},
    output: { headBytes: 1024, tailBytes: 1024 },
    graceMs: 200,
    ...overrides,
  };
}

/** The pid of the process that started the command's shell: its first line of output. */
async function parentOfShell(root: string): Promise<number> {
  const { output } = await runShellCommand(options(root, 'echo $PPID'));
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
    expect(commandLine.slice(0, 2)).toEqual([process.execPath, '-e']);
    const environment = (await readFile(`/proc/${launcher}/environ`, 'utf8')).split('\0').filter(Boolean);
    expect(environment.map((entry) => entry.split('=')[0]).sort()).toEqual(['NODE_CHANNEL_FD', 'NODE_CHANNEL_SERIALIZATION_MODE']);
  });

  it('relays output of any size whole and in order', async () => {
    const root = await tempFolder();
    const outcome = await runShellCommand(options(root, 'seq 1 400000; echo end >&2', { output: { headBytes: 100, tailBytes: 100 } }));
    expect(outcome.exitCode).toBe(0);
    const numbersBytes = Array.from({ length: 400_000 }, (_, index) => String(index + 1).length + 1).reduce((sum, bytes) => sum + bytes);
    expect(outcome.outputBytes).toBe(numbersBytes + 'end\n'.length);
    expect(outcome.output.trimEnd().split('\n').slice(-2)).toEqual(['400000', 'end']);
  });

  it('when the launcher dies mid-command, says so, stops the command, and starts a new launcher for the next', async () => {
    const root = cleanUp(await tempFolder());
    const watched = watchedLog();
    const running = runShellCommand(options(root, 'echo $PPID; echo $$ > shell.pid; sleep 300 & echo $! > background.pid; echo ready; wait', { log: watched.log }));
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

describe.skipIf(process.platform === 'win32')('a launcher that stops answering', () => {
  const tempFolder = useTempFolders();
  const cleanUp = useProcessCleanup();

  it('holds no command past its timeout or its cancel, and stops a command it starts once it answers again', async () => {
    const root = cleanUp(await tempFolder());
    const launcher = await parentOfShell(root);
    process.kill(launcher, 'SIGSTOP');
    try {
      const timedOut = await runShellCommand(options(root, 'echo $$ > late.pid; exec sleep 300', { timeoutMs: 500 })).catch((error: unknown) => error);
      expect(timedOut).toBeInstanceOf(CommandStartError);
      expect((timedOut as Error).message).toMatch(/did not start it within its 1 s timeout/);

      const abort = new AbortController();
      const cancelled = runShellCommand(options(root, 'true', { signal: abort.signal })).catch((error: unknown) => error);
      abort.abort();
      expect(await cancelled).toBeInstanceOf(CommandCancelledError);
    } finally {
      process.kill(launcher, 'SIGCONT');
    }
    // Answering again, the launcher starts the late command: it is stopped at once.
    const late = await within(10_000, async () => Number((await readFile(`${root}/late.pid`, 'utf8').catch(() => '0')) || 0), (pid) => pid > 0);
    expect(await within(10_000, async () => isGone(late), (gone) => gone)).toBe(true);
    expect(await parentOfShell(root)).toBe(launcher);
  });
});

describe.skipIf(process.platform === 'win32')('a launcher that cannot run', () => {
  const tempFolder = useTempFolders();

  it('leaves commands to start from the engine’s own process, the first included', async () => {
    const root = await tempFolder();
    const launcher = new CommandLauncher(() => () => nodeLauncherAt(`${root}/no-such-node`));
    const run = async () => {
      const started = await launcher.launch({ file: '/bin/sh', args: ['-c', 'echo $PPID'], cwd: root, env: { PATH: '/usr/bin:/bin' }, detached: true, windowsVerbatimArguments: false });
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
      channel.post({ op: 'start', id: 7, file: '/bin/sh', args: ['-c', request.command], cwd: request.cwd, env: { PATH: '/usr/bin:/bin' }, detached: true, windowsVerbatimArguments: false });
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
