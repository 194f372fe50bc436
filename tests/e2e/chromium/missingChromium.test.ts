import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempFolders } from '../../support/tempFolder.js';

const root = path.resolve(import.meta.dirname, '../../..');
const playwrightCli = path.join(root, 'node_modules', '@playwright', 'test', 'cli.js');

/** Runs the real e2e stage (`playwright test` with the project's config) and collects what it printed. */
function runE2eStage(env: NodeJS.ProcessEnv, output: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    // --output keeps the run from clearing test-results/ under an e2e run going on in this folder.
    const child = spawn(process.execPath, [playwrightCli, 'test', '--output', output], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (data: Buffer) => (stdout += data.toString()));
    child.stderr.on('data', (data: Buffer) => (stderr += data.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const howToFix = /^Install one with `[^`\n]+`, or set RPI_CHROMIUM to the path of a Chromium or Chrome executable\.$/;

describe('the e2e stage without a Chromium', () => {
  const tempFolder = useTempFolders('rpi-e2e-stage-');

  it('RPI_CHROMIUM at a missing file: one message before any test, no stack trace, exit 1', async () => {
    const run = await runE2eStage({ ...process.env, RPI_CHROMIUM: '/nonexistent/chromium', RPI_CHROMIUM_SEARCH: 'off' }, await tempFolder());
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    const lines = run.stderr.split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toBe('No Chromium for the end-to-end tests: RPI_CHROMIUM is /nonexistent/chromium, which does not exist.');
    expect(lines[1]).toMatch(howToFix);
    expect(lines[2]).toBe('');
  });

  it('RPI_CHROMIUM unset and the search off: says so, with the same way out', async () => {
    const { RPI_CHROMIUM: _unset, ...env } = process.env;
    const run = await runE2eStage({ ...env, RPI_CHROMIUM_SEARCH: 'off' }, await tempFolder());
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    const [what, fix, ...rest] = run.stderr.split('\n');
    expect(what).toBe('No Chromium for the end-to-end tests: RPI_CHROMIUM is not set, and RPI_CHROMIUM_SEARCH=off turns the search off.');
    expect(fix).toMatch(howToFix);
    expect(rest).toEqual(['']);
  });
});
