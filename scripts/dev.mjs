// `npm run dev`: the renderer from Vite's dev server (hot reload), main and preload rebuilt by esbuild
// on change, and Electron restarted when they change.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { context } from 'esbuild';
import { createServer } from 'vite';

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

const common = { bundle: true, platform: 'node', target: 'node20', format: 'cjs', sourcemap: true, logLevel: 'warning' };
const restartOnBuild = { name: 'restart-electron', setup: (build) => build.onEnd((result) => result.errors.length === 0 && restartElectron()) };
const main = await context({ ...common, entryPoints: ['electron/main.ts'], outfile: 'dist/electron/main.cjs', packages: 'external', plugins: [restartOnBuild] });
const preload = await context({ ...common, entryPoints: ['electron/preload.ts'], outfile: 'dist/electron/preload.cjs', external: ['electron'] });
await preload.rebuild();
await Promise.all([main.watch(), preload.watch()]);
