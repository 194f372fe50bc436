import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * A worker thread started from its entry file. `source` is the entry's TypeScript file (`new URL('./x.ts',
 * import.meta.url)` in the module that starts it). Built, every entry is bundled to
 * dist/workers/<name>.cjs (scripts/nodeBundles.mjs), one folder from the CLI's and Electron's bundles,
 * whose `import.meta.url` the build sets to the bundle's own file. Run from source (the tests, `npm run
 * bench`), the worker loads that TypeScript file through tsx's require (Node 20 does not apply a loader
 * given by --import to a worker's own entry). Either way with none of the host's Node flags (a loader,
 * --input-type=module).
 */
export function startWorker(source: URL, options: Omit<WorkerOptions, 'eval' | 'execArgv'> = {}): Worker {
  if (!import.meta.url.endsWith('.ts')) {
    return new Worker(new URL(`../workers/${path.basename(source.pathname, '.ts')}.cjs`, source), { ...options, execArgv: [] });
  }
  const tsx = createRequire(import.meta.url).resolve('tsx/cjs/api');
  const fromSource = `require(${JSON.stringify(tsx)}).require(${JSON.stringify(fileURLToPath(source))}, __filename);`;
  return new Worker(fromSource, { ...options, eval: true, execArgv: [] });
}
