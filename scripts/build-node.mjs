// Bundles the Node-side entry points (Electron main, preload, CLI, worker threads) with esbuild; the
// options are in nodeBundles.mjs.
import { build } from 'esbuild';
import { nodeBundles } from './nodeBundles.mjs';

const { main, preload, commandLauncher, cli, workers } = nodeBundles();
await Promise.all([main, preload, commandLauncher, cli, ...workers].map((options) => build(options)));
