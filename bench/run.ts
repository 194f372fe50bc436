// `npm run bench`: measurements reported as ratios against a reference run side by side in the same
// run. Not a test: nothing here passes or fails on time. Each benchmark runs in its own Node process,
// so the peak memory it prints is its own.
import { spawnSync } from 'node:child_process';

const benchmarks: [file: string, entry: string][] = [
  ['./bench/fileCount.ts', 'benchFileCount'],
  ['./bench/fileMap.ts', 'benchFileMap'],
  ['./bench/search.ts', 'benchSearch'],
  ['./bench/rpiTokens.ts', 'benchRpiTokens'],
  ['./bench/cache.ts', 'benchCache'],
  ['./bench/contextBudget.ts', 'benchContextBudget'],
  ['./bench/checkpoints.ts', 'benchCheckpoints'],
  ['./bench/soak.ts', 'benchSoak'],
  ['./bench/rendererHistory.ts', 'benchRendererHistory'],
  ['./bench/changes.ts', 'benchChanges'],
  ['./bench/tables.ts', 'benchTables'],
  ['./bench/pathCompletion.ts', 'benchPathCompletion'],
];

// `npm run bench -- rpi search`: only the benchmarks whose file or entry contains one of the words.
const filters = process.argv.slice(2).map((word) => word.toLowerCase());
const chosen = benchmarks.filter(([file, entry]) => filters.length === 0 || filters.some((word) => `${file} ${entry}`.toLowerCase().includes(word)));
if (chosen.length === 0) console.error(`bench: no benchmark matches ${filters.join(', ')}`);

let failed = chosen.length === 0;
for (const [file, entry] of chosen) {
  const script = `const m = await import(${JSON.stringify(file)}); await m.${entry}(); console.log('  peak memory (max RSS) ' + (process.resourceUsage().maxRSS / 1024).toFixed(0) + ' MB');`;
  const run = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', '--input-type=module', '-e', script], { stdio: 'inherit' });
  if (run.status !== 0) {
    console.error(`bench: ${entry} failed (exit ${run.status ?? run.signal})`);
    failed = true;
  }
  console.log('');
}
process.exitCode = failed ? 1 : 0;
