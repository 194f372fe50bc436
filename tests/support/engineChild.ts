import { spawn, type ChildProcess } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach } from 'vitest';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/** The engine's entry point, for child scripts to `await import(process.env.ENGINE_URL)`. */
const engineUrl = pathToFileURL(path.join(repoRoot, 'engine', 'index.ts')).href;

export interface EngineChild {
  readonly pid: number;
  /** Resolves with everything printed so far once stdout contains `text`; rejects if the child exits first. */
  waitForOutput(text: string): Promise<string>;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
  kill(signal: NodeJS.Signals): void;
}

/**
 * Runs TypeScript in a separate Node process (through tsx), so a test can hold a lock or drop privileges
 * in a process other than its own. Every child still running after a test is killed.
 */
export function useEngineChildren(scriptFolder: () => Promise<string>): (source: string, args?: string[]) => Promise<EngineChild> {
  const running = new Set<ChildProcess>();
  afterEach(async () => {
    await Promise.all(
      [...running].map(async (child) => {
        if (child.exitCode === null && child.signalCode === null) {
          const gone = new Promise((resolve) => child.once('exit', resolve));
          child.kill('SIGKILL');
          await gone;
        }
      }),
    );
    running.clear();
  });

  return async (source, args = []) => {
    const script = path.join(await scriptFolder(), 'child.mts');
    await writeFile(script, source);
    const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
      cwd: repoRoot,
      env: { ...process.env, ENGINE_URL: engineUrl },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    running.add(child);
    return wrap(child);
  };
}

function wrap(child: ChildProcess): EngineChild {
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>(
    (resolve) => child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  if (child.pid === undefined) throw new Error('could not start a child node process');
  return {
    pid: child.pid,
    exited,
    kill: (signal) => child.kill(signal),
    waitForOutput: (text) =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (!stdout.includes(text)) return;
          child.stdout?.off('data', check);
          resolve(stdout);
        };
        child.stdout?.on('data', check);
        check();
        void exited.then(({ code, signal }) =>
          reject(new Error(`child exited (code ${code}, signal ${signal}) before printing "${text}"\n${stdout}\n${stderr}`)),
        );
      }),
  };
}
