import { existsSync } from 'node:fs';
import { symlink } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { childEnvironment } from '../../../engine/secrets/childEnvironment.js';
import { resultForContext } from '../../../engine/tools/resultCap.js';
import { runCommand } from '../../../engine/tools/runCommand.js';
import { ToolError } from '../../../engine/tools/tool.js';
import { PathRefusedError } from '../../../engine/workspace/pathRules.js';
import { processTreeScript, recordedPids, survivors, useProcessCleanup, watchedLog } from '../../support/processProbe.js';
import { useTempFolders, writeTree } from '../../support/tempFolder.js';
import { runTool, toolContextFor } from '../../support/toolContext.js';

const duration = String.raw`\d+\.\d s`;

describe.skipIf(process.platform === 'win32')('run_command', () => {
  const tempFolder = useTempFolders();
  const cleanUp = useProcessCleanup();

  it('states exit code and duration first, then stdout and stderr', async () => {
    const root = await tempFolder();
    const context = await toolContextFor(root);
    const result = await runTool(runCommand, { command: 'echo out; echo err >&2' }, context);
    const [status, heading, ...output] = result.split('\n');
    expect(status).toMatch(new RegExp(`^exit code 0 after ${duration}$`));
    expect(heading).toBe('output (stdout and stderr interleaved, 8 bytes):');
    expect(output.sort()).toEqual(['', 'err', 'out']);
    expect(context.logged.sort()).toEqual(['err', 'out']);
  });

  it('reports a non-zero exit as a result the model reads, not an error', async () => {
    const root = await tempFolder();
    const result = await runTool(runCommand, { command: 'echo "2 tests failed"; exit 2' }, await toolContextFor(root));
    expect(result).toMatch(new RegExp(`^exit code 2 after ${duration}\noutput \\(stdout and stderr interleaved, 15 bytes\\):\n2 tests failed\n$`));
  });

  it('reports a shell ended by a signal, and a command without output', async () => {
    const root = await tempFolder();
    const context = await toolContextFor(root);
    expect(await runTool(runCommand, { command: 'kill -USR1 $$' }, context)).toMatch(new RegExp(`^ended by signal SIGUSR1 after ${duration}\nno output$`));
    expect(await runTool(runCommand, { command: 'true' }, context)).toMatch(new RegExp(`^exit code 0 after ${duration}\nno output$`));
  });

  it('runs in a subfolder given as cwd', async () => {
    const root = await tempFolder();
    await writeTree(root, { 'sub/marker.txt': '' });
    const result = await runTool(runCommand, { command: 'pwd; ls', cwd: 'sub' }, await toolContextFor(root));
    expect(result.split('\n').slice(2)).toEqual([path.join(root, 'sub'), 'marker.txt', '']);
  });

  it('refuses a cwd outside the project folder without running anything', async () => {
    const outside = await tempFolder();
    const root = await tempFolder();
    await symlink(outside, path.join(root, 'link'));
    const context = await toolContextFor(root);
    const command = `touch '${path.join(outside, 'ran')}'`;
    for (const cwd of ['..', outside, 'link', 'sub/../../x']) {
      await expect(runTool(runCommand, { command, cwd }, context)).rejects.toBeInstanceOf(PathRefusedError);
    }
    expect(existsSync(path.join(outside, 'ran'))).toBe(false);
  });

  it('says so when cwd does not exist or is a file', async () => {
    const root = await tempFolder();
    await writeTree(root, { 'file.txt': '' });
    const context = await toolContextFor(root);
    await expect(runTool(runCommand, { command: 'true', cwd: 'nope' }, context)).rejects.toThrow(
      new ToolError('The folder nope does not exist. Give cwd relative to the project folder, or leave it out to run in the project folder.'),
    );
    await expect(runTool(runCommand, { command: 'true', cwd: 'file.txt' }, context)).rejects.toThrow(new ToolError('file.txt is a file, not a folder. Give a folder as cwd.'));
  });

  it('keeps the head and tail of long output, small enough for the model to see both whole', async () => {
    const root = await tempFolder();
    const command = "printf 'START\\n'; yes middle | head -n 20000; printf 'END\\n'";
    const result = await runTool(runCommand, { command }, await toolContextFor(root));
    const total = 6 + 20000 * 7 + 4;
    const [status, heading, ...rest] = result.split('\n');
    expect(status).toMatch(/^exit code 0 after/);
    expect(heading).toBe(`output (stdout and stderr interleaved, ${total} bytes):`);
    expect(rest[0]).toBe('START');
    expect(rest.filter((line) => line.startsWith('…'))).toEqual([`… ${total - 6 * 1024 - 12 * 1024} bytes omitted …`]);
    expect(result.endsWith('middle\nEND\n')).toBe(true);
    expect(resultForContext(result, 1)).toBe(result);
  });

  it('validates timeout_s (1 to 600 whole seconds, default 120) and needs a command', () => {
    const parse = (args: unknown) => runCommand.parameters.safeParse(args);
    expect(parse({ command: 'make' })).toEqual({ success: true, data: { command: 'make', cwd: '.', timeout_s: 120 } });
    expect(parse({ command: 'make', timeout_s: 600 }).success).toBe(true);
    for (const timeout_s of [0, 601, 1.5, '5']) expect(parse({ command: 'make', timeout_s }).success).toBe(false);
    expect(parse({ command: '' }).success).toBe(false);
    expect(parse({}).success).toBe(false);
  });

  it('stops a command that ignores SIGTERM at its timeout, with all its children, even those that called setsid', async () => {
    const root = cleanUp(await tempFolder());
    const watched = watchedLog();
    const context = { ...(await toolContextFor(root)), log: watched.log };
    const result = await runTool(runCommand, { command: await processTreeScript(root, { ignoreTerm: true }), timeout_s: 1 }, context);
    expect(watched.lines).toContain('ready');
    expect(result.split('\n').slice(0, 2)).toEqual([
      expect.stringMatching(new RegExp(`^timed out after 1 s; stopped with its child processes \\(ended by signal SIGKILL after ${duration}\\)$`)),
      'Raise timeout_s (at most 600) if the command needs longer.',
    ]);
    expect(Object.keys(await recordedPids(root)).sort()).toEqual(['background', 'detached', 'escaped', 'node', 'shell']);
    expect(await survivors(root)).toEqual({});
  });

  it('stops the command with all its children when the user cancels', async () => {
    const root = cleanUp(await tempFolder());
    const watched = watchedLog();
    const abort = new AbortController();
    const context = { ...(await toolContextFor(root, { signal: abort.signal })), log: watched.log };
    const running = runTool(runCommand, { command: await processTreeScript(root, { ignoreTerm: false }) }, context);
    await watched.seen('ready');
    abort.abort();
    expect(await running).toMatch(new RegExp(`^cancelled by the user; stopped with its child processes \\(ended by signal SIGTERM after ${duration}\\)\n`));
    expect(await survivors(root)).toEqual({});
  });

  it('runs nothing when the user has already cancelled', async () => {
    const root = await tempFolder();
    const abort = new AbortController();
    abort.abort();
    const result = await runTool(runCommand, { command: 'touch ran' }, await toolContextFor(root, { signal: abort.signal }));
    expect(result).toBe('cancelled by the user before it started; nothing was run');
    expect(existsSync(path.join(root, 'ran'))).toBe(false);
  });

  it('stops what the command left running in the background, and says so', async () => {
    const root = cleanUp(await tempFolder());
    const result = await runTool(runCommand, { command: 'sleep 300 & echo $! > background.pid; echo started' }, await toolContextFor(root));
    expect(result.split('\n').slice(1)).toEqual(['1 process it left running in the background was stopped when it ended.', 'output (stdout and stderr interleaved, 8 bytes):', 'started', '']);
    expect(await survivors(root)).toEqual({});
  });

  it('passes the child environment built by childEnvironment, which holds no secret', async () => {
    const root = await tempFolder();
    const childEnv = childEnvironment({ ...process.env, OPENAI_API_KEY: 'sk-test-123', MY_TOKEN: 't', OTHER: 'x sk-test-123 y', SAFE: 'ok' }, ['sk-test-123']);
    const result = await runTool(runCommand, { command: 'env' }, await toolContextFor(root, { childEnv }));
    expect(result).toContain('\nSAFE=ok\n');
    for (const leak of ['OPENAI_API_KEY', 'MY_TOKEN', 'OTHER=', 'sk-test-123']) expect(result).not.toContain(leak);
  });
});
