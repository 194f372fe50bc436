import type { ToolContext } from '../engine/tools/tool.js';
import { Workspace } from '../engine/workspace/workspace.js';
import { execFileSync, spawnSync } from 'node:child_process';
import { selfTimed } from './referenceRunner.js';
export { seededRandom } from '../tests/support/seededRandom.js';

/** Makes sure ripgrep (the reference the file benchmarks compare against) is installed; apt where missing. */
export function ensureRipgrep(): string {
  const found = spawnSync('rg', ['--version'], { encoding: 'utf8' });
  if (found.status === 0) return 'rg';
  console.log('bench: installing ripgrep from apt…');
  const asRoot = process.getuid?.() === 0 ? [] : ['sudo'];
  execFileSync(asRoot[0] ?? 'apt-get', [...asRoot.slice(1), ...(asRoot.length ? ['apt-get'] : []), 'install', '-y', '-qq', 'ripgrep'], { stdio: 'inherit' });
  return 'rg';
}

/**
 * Median milliseconds of each function over `runs` rounds, run in turns within each round so that load
 * from elsewhere on the machine hits the engine and its reference alike. A function whose result carries
 * its own time (a reference command timed in the helper process, see ReferenceRunner) counts that time.
 * With `rotate`, each round starts one function later, so none always runs right after the same other
 * (whose garbage, say, it would pay to collect).
 */
export async function interleavedMedians(runs: number, fns: readonly (() => unknown)[], { rotate = false } = {}): Promise<number[]> {
  const times = fns.map(() => [] as number[]);
  for (let run = 0; run < runs; run += 1) {
    for (let turn = 0; turn < fns.length; turn += 1) {
      const index = rotate ? (turn + run) % fns.length : turn;
      const start = performance.now();
      const value = await fns[index]!();
      const ownTime = typeof value === 'object' && value !== null && selfTimed in value ? (value as { [selfTimed]: number })[selfTimed] : null;
      times[index]!.push(ownTime ?? performance.now() - start);
    }
  }
  return times.map(median);
}

export function median(list: readonly number[]): number {
  return [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)] ?? 0;
}

/** A real tool context on `root`, as the executor gives one, for calling a tool's run directly. */
export async function benchToolContext(root: string): Promise<ToolContext> {
  return { workspace: await Workspace.at(root), signal: new AbortController().signal, recall: async () => null, childEnv: {}, log: () => {}, maskSecrets: (text: string) => text };
}

export const format = (ms: number) => `${ms.toFixed(1)} ms`;
