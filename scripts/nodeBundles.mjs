// The Node-side bundles esbuild makes (scripts/build-node.mjs builds them, scripts/dev.mjs watches the
// Electron ones, a test builds them into a temporary folder). npm packages stay external (they are
// installed next to the app), except in the preload: a sandboxed preload can only require 'electron', so
// it is bundled whole.

const common = { bundle: true, platform: 'node', target: 'node20', format: 'cjs', sourcemap: true, logLevel: 'warning' };

// A CommonJS bundle has no import.meta: its url is set to the bundle's own file, which is where the
// engine finds the worker entries built beside it (see engine/process/workerEntry.ts). The banner comes
// before esbuild's own "use strict", so it says it first.
const withImportMetaUrl = {
  define: { 'import.meta.url': 'importMetaUrl' },
  banner: { js: "'use strict';\nconst importMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
};

/** A bundle of `entry` that finds the worker entries (see withImportMetaUrl). */
export const nodeBundle = (entry, outfile) => ({ ...common, ...withImportMetaUrl, entryPoints: [entry], outfile, packages: 'external' });

/** Worker threads' entry files, each bundled to dist/workers/<name>.cjs (its file name without .ts). */
export const workerEntries = ['engine/diff/diffWorker.ts'];

/** esbuild options per bundle, by name, writing under `dist` (a folder path). */
export function nodeBundles(dist = 'dist') {
  const workers = workerEntries.map((entry) => nodeBundle(entry, `${dist}/workers/${entry.split('/').pop().replace(/\.ts$/, '.cjs')}`));
  return {
    main: nodeBundle('electron/main.ts', `${dist}/electron/main.cjs`),
    preload: { ...common, entryPoints: ['electron/preload.ts'], outfile: `${dist}/electron/preload.cjs`, external: ['electron'] },
    commandLauncher: { ...common, entryPoints: ['electron/commandLauncher.ts'], outfile: `${dist}/electron/commandLauncher.cjs` },
    cli: nodeBundle('cli/main.ts', `${dist}/cli/main.cjs`),
    workers,
  };
}
