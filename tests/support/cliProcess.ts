import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, beforeEach } from 'vitest';
import { workbenchEventSchema, type WorkbenchEvent } from '../../engine/contract/index.js';
import { reportOnSignal, stuckReport } from './stuckReport.js';
import { useTempFolders } from './tempFolder.js';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
export const cliBin = path.join(repoRoot, 'bin', 'rpi-workbench.cjs');

export interface CliExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliChild {
  readonly child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves once the stream's output so far matches; rejects if the process exits first. */
  waitFor(stream: 'stdout' | 'stderr', pattern: RegExp | string): Promise<void>;
  readonly exited: Promise<CliExit>;
}

export interface CliOptions {
  /** Added to the environment (undefined removes a variable). */
  env?: Record<string, string | undefined>;
}

/** The variables the CLI reads, removed so the developer's own settings never leak into a test. */
const settingsVariables = ['OPENAI_BASE_URL', 'OPENAI_API_KEY', 'RPI_MODEL', 'RPI_WORKBENCH_CONFIG_DIR', 'VISUAL', 'EDITOR'];

/**
 * Runs the built CLI (bin/rpi-workbench.cjs) as a child process, each test with its own temp config
 * directory (RPI_WORKBENCH_CONFIG_DIR) and a clean environment; every child still running after a test
 * is killed. With `nodeReports`, a test that fails also prints each stuck CLI's JavaScript stack and the
 * handles keeping it alive (a Node diagnostic report asked for by signal).
 */
export function useCli({ nodeReports = false }: { nodeReports?: boolean } = {}) {
  const configFolder = useTempFolders('rpi-cli-config-');
  let configDir = '';
  const running = new Set<ChildProcess>();
  beforeAll(() => {
    if (!existsSync(path.join(repoRoot, 'dist', 'cli', 'main.cjs'))) {
      throw new Error('The CLI is not built: run `node scripts/build-node.mjs` (or `npm run build`) before these tests.');
    }
  });
  beforeEach(async () => {
    configDir = await configFolder();
  });
  // Registered after useTempFolders' own: vitest runs after-hooks in reverse, so the children die before their config folder goes.
  afterEach(async (context) => {
    // A test that failed (a wait that never matched ends in a timeout) shows what each child printed and was awaited.
    if (context.task.result?.state === 'fail') for (const child of running) await reportOf(child, nodeReports ? configDir : null);
    await Promise.all([...running].map((child) => killed(child)));
    running.clear();
  });

  const environment = (extra: CliOptions['env'] = {}) => {
    const env: Record<string, string | undefined> = { ...process.env };
    for (const name of settingsVariables) delete env[name];
    return { ...env, RPI_WORKBENCH_CONFIG_DIR: configDir, ...(nodeReports ? reportOnSignal(configDir) : {}), ...extra };
  };

  const start = (args: string[], options: CliOptions = {}): CliChild => {
    const child = spawn(process.execPath, [cliBin, ...args], { env: environment(options.env), stdio: ['ignore', 'pipe', 'pipe'] });
    running.add(child);
    return watched(child);
  };

  return {
    /** The temp config directory of the current test. */
    configDir: () => configDir,
    environment,
    start,
    /** Runs the CLI to its end. */
    run: (args: string[], options: CliOptions = {}) => start(args, options).exited,
    /** Keeps a process started some other way (e.g. through `script`) from outliving the test. */
    track: (child: ChildProcess) => running.add(child),
  };
}

/** What a watched child printed and what a test still waits for in it, printed when a test fails. */
const reports = new WeakMap<ChildProcess, () => string>();

function reportOf(child: ChildProcess, reportsDir: string | null): Promise<void> {
  const report = reports.get(child);
  return report ? stuckReport(child.pid, report(), reportsDir) : Promise.resolve();
}

const tail = (text: string) => JSON.stringify(text.slice(-3000));

export function watched(child: ChildProcess): CliChild {
  const output = { stdout: '', stderr: '' };
  const waiters: (() => void)[] = [];
  const awaited = new Set<string>();
  reports.set(child, () => `pid ${child.pid} (${child.spawnargs.join(' ').slice(0, 200)})\nstill awaited: ${[...awaited].join(' | ') || 'nothing'}\nstdout tail: ${tail(output.stdout)}\nstderr tail: ${tail(output.stderr)}`);
  const onData = (stream: 'stdout' | 'stderr') => (chunk: string) => {
    output[stream] += chunk;
    for (const check of [...waiters]) check();
  };
  child.stdout?.setEncoding('utf8').on('data', onData('stdout'));
  child.stderr?.setEncoding('utf8').on('data', onData('stderr'));
  const exited = new Promise<CliExit>((resolve) => child.once('close', (code, signal) => resolve({ code, signal, ...output })));
  return {
    child,
    stdout: () => output.stdout,
    stderr: () => output.stderr,
    exited,
    waitFor: (stream, pattern) =>
      new Promise((resolve, reject) => {
        const matches = () => (typeof pattern === 'string' ? output[stream].includes(pattern) : pattern.test(output[stream]));
        const label = `${stream} ${JSON.stringify(String(pattern))}`;
        awaited.add(label);
        const check = () => {
          if (!matches()) return;
          waiters.splice(waiters.indexOf(check), 1);
          awaited.delete(label);
          resolve();
        };
        waiters.push(check);
        check();
        void exited.then(({ code }) => {
          if (matches()) return;
          reject(new Error(`The CLI exited (code ${code}) before its ${stream} matched ${String(pattern)}.\nstdout:\n${output.stdout}\nstderr:\n${output.stderr}`));
        });
      }),
  };
}

async function killed(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await gone;
}

/** Writes the user's settings file in `configDir` as the desktop app would (without a key). */
export async function writeSettingsFile(configDir: string, settings: Record<string, unknown>): Promise<void> {
  await mkdir(configDir, { recursive: true });
  await writeFile(path.join(configDir, 'settings.json'), `${JSON.stringify(settings, null, 2)}\n`);
}

/** `--json` output: every line parsed and checked against the contract's event schema (throws on any other line). */
export function parseJsonEvents(stdout: string): WorkbenchEvent[] {
  return stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => workbenchEventSchema.parse(JSON.parse(line)));
}

/** One line of `rpi-workbench history --json`. */
export interface HistoryLine {
  id: string;
  role: 'user' | 'assistant';
  ts: number;
  time: string;
  text: string;
  plan?: { done: number; failed: number; total: number } | null;
  /** What a request's model calls used in all; null when none was recorded. */
  usage?: {
    promptTokens: number;
    cachedTokens: number;
    cacheWriteTokens: number;
    completionTokens: number;
    reasoningTokens: number;
    costUsd: number | null;
    unpricedSteps: number;
  } | null;
  /** The request's plan's checks by their latest result; null without a plan. */
  checks?: { passed: number; failed: number; denied: number; none: number } | null;
  /** The model that ran each phase of a request (null for a phase without a call). */
  models?: Record<'research' | 'plan' | 'implement' | 'summary', string | null>;
}

/** The folder's history as `history --json` prints it (the command must succeed). */
export async function historyOf(cli: ReturnType<typeof useCli>, root: string): Promise<HistoryLine[]> {
  const run = await cli.run(['history', root, '--json']);
  if (run.code !== 0) throw new Error(`history exited ${run.code}: ${run.stderr}`);
  return run.stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line) as HistoryLine);
}
