import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';

/** Marks a result that carries its own time; interleavedMedians takes that time instead of timing the call. */
export const selfTimed = Symbol('selfTimed');

export interface ReferenceRun {
  /** From the command's start to its exit, timed in the helper around its own spawn. */
  ms: number;
  [selfTimed]: number;
  status: number | null;
  /** Only when asked for (`output`); else empty. */
  stdout: string;
  stderr: string;
}

export interface ReferenceOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Send the command's stdout back (a match count, a listing); otherwise it is read and dropped. */
  output?: boolean;
}

/** The helper: one JSON request a line on stdin, one JSON answer a line on stdout. Plain JavaScript, no loader. */
const helperSource = `
const { spawnSync } = require('node:child_process');
const lines = require('node:readline').createInterface({ input: process.stdin });
lines.on('line', (line) => {
  const { id, command, args, cwd, env, output } = JSON.parse(line);
  const start = performance.now();
  // Bytes, as the bench took them before; decoded after the timing, and only when asked for.
  const run = spawnSync(command, args, { cwd, env, maxBuffer: 1 << 30 });
  const ms = performance.now() - start;
  const failed = run.error ? String(run.error) : run.status === 0 ? '' : String(run.stderr);
  process.stdout.write(JSON.stringify({ id, ms, status: run.status, stdout: output ? String(run.stdout) : '', stderr: failed }) + '\\n');
});
`;

/**
 * Runs the reference commands a benchmark compares the engine with (rg, git) from a small helper process
 * instead of the bench's own. Spawning from the bench process forks the engine's process: every page of
 * its heap is write-protected for the fork, and the engine's next measured step then takes a page fault for
 * each page it writes — a cost of the harness, not of the engine itself (in the app, a search or a change list
 * right after a command the engine ran meets the same cost: what the benches measure is the engine
 * between commands). (Measured with the changes bench, 8 rounds: the warm change list 470–635 ms
 * with no spawn in between, 740–1,160 ms right after `git diff` run from the same process.) The helper
 * times each command itself, from spawn to exit, as the bench process did.
 */
export class ReferenceRunner {
  private nextId = 0;
  private ended: Error | null = null;
  private readonly waiting = new Map<number, { resolve: (run: ReferenceRun) => void; reject: (error: Error) => void }>();

  private constructor(private readonly helper: ChildProcessByStdio<Writable, Readable, null>) {
    createInterface({ input: helper.stdout }).on('line', (line) => {
      const { id, ...run } = JSON.parse(line) as Omit<ReferenceRun, typeof selfTimed> & { id: number };
      this.waiting.get(id)?.resolve({ ...run, [selfTimed]: run.ms });
      this.waiting.delete(id);
    });
    // 'close', not 'exit': the answers it wrote before exiting are read first.
    helper.on('close', (code) => this.failAll(new Error(`the reference helper exited (${code}) before its command finished`)));
    helper.on('error', (error) => this.failAll(error));
    helper.stdin.on('error', (error) => this.failAll(error));
  }

  private failAll(error: Error): void {
    this.ended = error;
    for (const { reject } of this.waiting.values()) reject(error);
    this.waiting.clear();
  }

  static start(): ReferenceRunner {
    return new ReferenceRunner(spawn(process.execPath, ['-e', helperSource], { stdio: ['pipe', 'pipe', 'inherit'] }));
  }

  run(command: string, args: readonly string[], { cwd, env, output = false }: ReferenceOptions = {}): Promise<ReferenceRun> {
    if (this.ended) return Promise.reject(this.ended);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.helper.stdin.write(`${JSON.stringify({ id, command, args, cwd, env, output })}\n`);
    });
  }

  /** As `run`, failing when the command does. */
  async check(command: string, args: readonly string[], options: ReferenceOptions = {}): Promise<ReferenceRun> {
    const run = await this.run(command, args, options);
    if (run.status !== 0) throw new Error(`${command} ${args.join(' ')} failed: ${run.stderr}`);
    return run;
  }

  close(): void {
    this.helper.stdin.end();
  }
}
