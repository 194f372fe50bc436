import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterEach } from 'vitest';
import type { RunShellCommandOptions } from '../../engine/process/runShellCommand.js';
import { writeTree } from './tempFolder.js';

/** A pid no process has: that of a child that has already exited. */
export function deadPid(): number {
  const { pid } = spawnSync(process.execPath, ['-e', '']);
  if (pid === undefined) throw new Error('could not start a child node process');
  return pid;
}

/** Whether a process is gone: no such pid, or a zombie that runs nothing and only waits to be reaped. */
export function isGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return true;
    throw error;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2)[0];
    return state === 'Z' || state === 'X';
  } catch {
    return true;
  }
}

/** The pids the processes of a tree wrote into `<name>.pid` files in `root`, by name. */
export async function recordedPids(root: string): Promise<Record<string, number>> {
  const files = (await readdir(root)).filter((name) => name.endsWith('.pid'));
  const entries = await Promise.all(files.map(async (name) => [name.slice(0, -'.pid'.length), Number(await readFile(path.join(root, name), 'utf8'))] as const));
  return Object.fromEntries(entries);
}

/** The recorded pids of `root` that still run, by name; `{}` when the whole tree is gone. */
export async function survivors(root: string): Promise<Record<string, number>> {
  return Object.fromEntries(Object.entries(await recordedPids(root)).filter(([, pid]) => !isGone(pid)));
}

export interface ProcessTreeOptions {
  /** Whether the shell, everything it starts with sh, and the node child ignore SIGTERM. */
  ignoreTerm: boolean;
}

/**
 * Writes the helper a tree needs into `root` and returns a shell script that builds it there: the shell,
 * a background sleep in its group, a sleep that left the group with setsid, and a node child that starts
 * a detached (setsid) sleep of its own. Each writes its pid to `<name>.pid`; the script prints `ready`
 * once all have, then becomes a sleep itself.
 */
export async function processTreeScript(root: string, { ignoreTerm }: ProcessTreeOptions): Promise<string> {
  await writeTree(root, {
    'child.cjs': [
      "const { spawn } = require('node:child_process');",
      "const { writeFileSync } = require('node:fs');",
      "if (process.argv[2] === 'ignore-term') process.on('SIGTERM', () => {});",
      "const detached = spawn('sleep', ['300'], { detached: true, stdio: 'ignore' });",
      "writeFileSync('detached.pid', String(detached.pid));",
      "writeFileSync('node.pid', String(process.pid));",
      'setInterval(() => {}, 1000);',
    ].join('\n'),
  });
  return [
    ignoreTerm ? "trap '' TERM" : ':',
    'echo $$ > shell.pid',
    'sleep 300 & echo $! > background.pid',
    "setsid sh -c 'echo $$ > escaped.pid; exec sleep 300' &",
    `'${process.execPath}' child.cjs ${ignoreTerm ? 'ignore-term' : ''} &`,
    'while [ ! -s escaped.pid ] || [ ! -s node.pid ] || [ ! -s detached.pid ]; do sleep 0.05; done',
    'echo ready',
    'exec sleep 300',
  ].join('\n');
}

/** SIGKILLs whatever recorded a pid in the given folders after each test, so a failing test leaves nothing running. */
export function useProcessCleanup(): (root: string) => string {
  const roots: string[] = [];
  afterEach(async () => {
    for (const root of roots.splice(0)) {
      const pids = await recordedPids(root).catch(() => ({}));
      for (const pid of Object.values(pids)) if (!isGone(pid)) process.kill(pid, 'SIGKILL');
    }
  });
  return (root) => {
    roots.push(root);
    return root;
  };
}

/** A log that records every line and resolves `seen(line)` once that line has been logged. */
export function watchedLog(): { log: (line: string) => void; lines: string[]; seen: (line: string) => Promise<void> } {
  const lines: string[] = [];
  const waiting = new Map<string, () => void>();
  return {
    lines,
    log: (line) => {
      lines.push(line);
      waiting.get(line)?.();
    },
    seen: (line) => (lines.includes(line) ? Promise.resolve() : new Promise((resolve) => waiting.set(line, resolve))),
  };
}

/** runShellCommand's options for `command` in `cwd` as the process tests run it: PATH only, a 20 s timeout, a short grace. */
export function shellCommandOptions(cwd: string, command: string, overrides: Partial<RunShellCommandOptions> = {}): RunShellCommandOptions {
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
