import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';

const bin = path.resolve('bin/rpi-workbench.cjs');
let temp: string;

beforeAll(() => {
  if (!existsSync('dist/cli/main.cjs')) throw new Error('The CLI is not built: run `npm run build` before these tests (npm test does).');
});
beforeEach(async () => {
  temp = await mkdtemp(path.join(os.tmpdir(), 'rpi-cli-'));
});
afterEach(async () => {
  await rm(temp, { recursive: true, force: true });
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built CLI; with `until`, sends SIGTERM once stdout matches it. */
function runCli(args: string[], until?: RegExp): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], { env: { ...process.env, RPI_WORKBENCH_CONFIG_DIR: path.join(temp, 'config') } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (data: Buffer) => {
      stdout += data.toString();
      if (until?.test(stdout)) child.kill('SIGTERM');
    });
    child.stderr.on('data', (data: Buffer) => (stderr += data.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('rpi-workbench serve', () => {
  it('prints the URL to open, then stops cleanly on SIGTERM, releasing the folder lock', async () => {
    const run = await runCli(['serve', temp], /Open: http:\/\/127\.0\.0\.1:\d+\/#token=[\w-]+\n/);
    expect(run.stdout).toContain(`RPI Workbench is serving ${await realpath(temp)}`);
    expect(run.code).toBe(0);
    expect(existsSync(path.join(temp, '.workbench', 'lock'))).toBe(false);
  });

  it('exits 2 with one clear line for a missing folder', async () => {
    const run = await runCli(['serve', path.join(temp, 'nope')]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toEqual([`rpi-workbench: Folder not found: ${path.join(temp, 'nope')}`]);
  });

  it('exits 2 for a file given as the folder', async () => {
    await writeFile(path.join(temp, 'file.txt'), 'x');
    const run = await runCli(['serve', path.join(temp, 'file.txt')]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('is a file, not a folder');
  });

  it('rejects an unknown flag and a bad port with usage help, exit 2', async () => {
    const unknown = await runCli(['serve', temp, '--bogus']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown option '--bogus'");
    const badPort = await runCli(['serve', temp, '--port', '99999']);
    expect(badPort.code).toBe(2);
    expect(badPort.stderr).toContain('must be a whole number from 1 to 65535');
  });

  it('documents itself with --help', async () => {
    const run = await runCli(['serve', '--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Usage: rpi-workbench serve [options] <folder>');
  });
});

