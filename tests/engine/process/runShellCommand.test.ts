import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CommandStartError, runShellCommand } from '../../../engine/process/runShellCommand.js';
import { useTempFolders } from '../../support/tempFolder.js';
import { processTreeScript, recordedPids, shellCommandOptions, survivors, useProcessCleanup, watchedLog } from '../../support/processProbe.js';

describe.skipIf(process.platform === 'win32')('runShellCommand', () => {
  const tempFolder = useTempFolders();
  const cleanUp = useProcessCleanup();

  it('reports exit code, output of both streams and duration', async () => {
    const root = await tempFolder();
    const outcome = await runShellCommand(shellCommandOptions(root, 'echo out; echo err >&2; exit 3'));
    expect(outcome).toMatchObject({ exitCode: 3, signal: null, stoppedBy: null, outputBytes: 8, leftoversStopped: 0 });
    expect(outcome.output.split('\n').sort()).toEqual(['', 'err', 'out']);
    expect(outcome.durationMs).toBeGreaterThan(0);
  });

  it('gives the child exactly the environment it is handed, and its own marker', async () => {
    const root = await tempFolder();
    const outcome = await runShellCommand(shellCommandOptions(root, 'env', { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ONLY: 'this' } }));
    const names = outcome.output.trim().split('\n').map((line) => line.split('=')[0]);
    expect(names).toEqual(expect.arrayContaining(['ONLY', 'PATH', 'RPI_WORKBENCH_COMMAND']));
    expect(names).not.toContain('HOME');
  });

  it('logs lines while the command still runs', async () => {
    const root = await tempFolder();
    const watched = watchedLog();
    const running = runShellCommand(shellCommandOptions(root, 'echo first; while [ ! -e go ]; do sleep 0.05; done; echo second', { log: watched.log }));
    await watched.seen('first');
    await writeFile(path.join(root, 'go'), '');
    await running;
    expect(watched.lines).toEqual(['first', 'second']);
  });

  it('stops the whole tree at the timeout, with SIGKILL when SIGTERM is ignored', async () => {
    const root = cleanUp(await tempFolder());
    const watched = watchedLog();
    const running = runShellCommand(shellCommandOptions(root, await processTreeScript(root, { ignoreTerm: true }), { timeoutMs: 1000, log: watched.log }));
    await watched.seen('ready');
    const outcome = await running;
    expect(outcome).toMatchObject({ exitCode: null, signal: 'SIGKILL', stoppedBy: 'timeout', output: 'ready\n' });
    expect(Object.keys(await recordedPids(root))).toHaveLength(5);
    expect(await survivors(root)).toEqual({});
  });

  it('stops the whole tree on abort', async () => {
    const root = cleanUp(await tempFolder());
    const watched = watchedLog();
    const abort = new AbortController();
    const running = runShellCommand(shellCommandOptions(root, await processTreeScript(root, { ignoreTerm: false }), { signal: abort.signal, log: watched.log }));
    await watched.seen('ready');
    abort.abort();
    expect(await running).toMatchObject({ signal: 'SIGTERM', stoppedBy: 'cancel' });
    expect(await survivors(root)).toEqual({});
  });

  it('stops background processes still running when the shell exits, and does not wait for them', async () => {
    const root = cleanUp(await tempFolder());
    const outcome = await runShellCommand(shellCommandOptions(root, 'sleep 300 & echo $! > background.pid; echo done'));
    expect(outcome).toMatchObject({ exitCode: 0, stoppedBy: null, output: 'done\n', leftoversStopped: 1 });
    expect(await survivors(root)).toEqual({});
  });

  it('finishes within the drain window when an escaped process keeps the output open', async () => {
    const root = cleanUp(await tempFolder());
    const command = "setsid sh -c 'echo $$ > escaped.pid; exec sleep 300' & while [ ! -s escaped.pid ]; do sleep 0.05; done; echo done";
    const outcome = await runShellCommand(shellCommandOptions(root, command, { drainMs: 100 }));
    expect(outcome).toMatchObject({ exitCode: 0, output: 'done\n' });
  });

  // A daemon as `nohup`, `daemonize` or a dev server's --background make it: fork, setsid, fork again,
  // so the survivor's parent has exited and init adopted it; no parent link leads to it any more.
  const daemon = "(setsid sh -c 'echo $$ > daemon.pid; exec sleep 300' &) ; while [ ! -s daemon.pid ]; do sleep 0.05; done";

  it.skipIf(process.platform !== 'linux')('stops a double-forked daemon in a session of its own when the command ends', async () => {
    const root = cleanUp(await tempFolder());
    const outcome = await runShellCommand(shellCommandOptions(root, `${daemon}; echo started`, { drainMs: 100 }));
    expect(outcome).toMatchObject({ exitCode: 0, stoppedBy: null, output: 'started\n', leftoversStopped: 1 });
    expect(Object.keys(await recordedPids(root))).toEqual(['daemon']);
    expect(await survivors(root)).toEqual({});
  });

  it.skipIf(process.platform !== 'linux')('stops a double-forked daemon at the timeout and on cancel', async () => {
    for (const stop of ['timeout', 'cancel'] as const) {
      const root = cleanUp(await tempFolder());
      const controller = new AbortController();
      const watched = watchedLog();
      const running = runShellCommand(
        shellCommandOptions(root, `${daemon}; echo started; exec sleep 300`, { timeoutMs: stop === 'timeout' ? 1000 : 60_000, signal: controller.signal, log: watched.log }),
      );
      await watched.seen('started');
      if (stop === 'cancel') controller.abort();
      expect(await running).toMatchObject({ stoppedBy: stop });
      expect(Object.keys(await recordedPids(root))).toEqual(['daemon']);
      expect(await survivors(root)).toEqual({});
    }
  });

  it('throws CommandStartError naming the folder when it does not exist', async () => {
    const missing = path.join(await tempFolder(), 'missing');
    const error: unknown = await runShellCommand(shellCommandOptions(missing, 'true')).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(CommandStartError);
    expect((error as Error).message).toBe(`Could not start the command: the folder ${missing} does not exist.`);
  });
});
