import { execFileSync, spawnSync } from 'node:child_process';

/** Makes sure ripgrep (the reference the file benchmarks compare against) is installed; apt where missing. */
export function ensureRipgrep(): string {
  const found = spawnSync('rg', ['--version'], { encoding: 'utf8' });
  if (found.status === 0) return 'rg';
  console.log('bench: installing ripgrep from apt…');
  const asRoot = process.getuid?.() === 0 ? [] : ['sudo'];
  execFileSync(asRoot[0] ?? 'apt-get', [...asRoot.slice(1), ...(asRoot.length ? ['apt-get'] : []), 'install', '-y', '-qq', 'ripgrep'], { stdio: 'inherit' });
  return 'rg';
}

/** Median wall time of `runs` runs of `fn`, in milliseconds. */
export async function medianMs(runs: number, fn: () => unknown): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] ?? 0;
}

export const format = (ms: number) => `${ms.toFixed(1)} ms`;
