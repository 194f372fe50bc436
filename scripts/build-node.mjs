// Bundles the Node-side entry points (Electron main, preload, CLI) with esbuild. npm packages stay
// external (they are installed next to the app), except in the preload: a sandboxed preload can only
// require 'electron', so it is bundled whole.
import { build } from 'esbuild';

const common = { bundle: true, platform: 'node', target: 'node20', format: 'cjs', sourcemap: true, logLevel: 'warning' };

await Promise.all([
  build({ ...common, entryPoints: ['electron/main.ts'], outfile: 'dist/electron/main.cjs', packages: 'external' }),
  build({ ...common, entryPoints: ['electron/preload.ts'], outfile: 'dist/electron/preload.cjs', external: ['electron'] }),
  build({ ...common, entryPoints: ['cli/main.ts'], outfile: 'dist/cli/main.cjs', packages: 'external' }),
]);
