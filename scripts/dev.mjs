// `npm run dev`: the renderer from Vite's dev server (hot reload), main and preload rebuilt by esbuild
// on change, and Electron restarted when they change.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { context } from 'esbuild';
import { createServer } from 'vite';
import { nodeBundles } from './nodeBundles.mjs';

const require = createRequire(import.meta.url);
const vite = await createServer({ configFile: 'vite.config.ts' });
await vite.listen();
const devUrl = vite.resolvedUrls?.local[0];
if (!devUrl) throw new Error('Vite did not report a local URL');

let electron = null;
function restartElectron() {
  if (electron) {
    electron.removeAllListeners('exit');
    electron.kill();
  }
  electron = spawn(require('electron'), ['.'], { stdio: 'inherit', env: { ...process.env, VITE_DEV_SERVER_URL: devUrl } });
  electron.on('exit', async (code) => {
    await vite.close();
    process.exit(code ?? 0);
  });
}

const restartOnBuild = { name: 'restart-electron', setup: (build) => build.onEnd((result) => result.errors.length === 0 && restartElectron()) };
const bundles = nodeBundles();
const main = await context({ ...bundles.main, plugins: [restartOnBuild] });
const preload = await context(bundles.preload);
const commandLauncher = await context(bundles.commandLauncher);
const workers = await Promise.all(bundles.workers.map((options) => context(options)));
await Promise.all([preload, commandLauncher, ...workers].map((bundle) => bundle.rebuild()));
await Promise.all([main, preload, commandLauncher, ...workers].map((bundle) => bundle.watch()));
