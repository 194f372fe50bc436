import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { listPackage } from '@electron/asar';
import { afterAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const built = ['dist/electron/main.cjs', 'dist/electron/preload.cjs', 'dist/renderer/index.html'].every((file) => existsSync(path.join(root, file)));
const skipReason = 'packaging check skipped: run `npm run build` first (dist/electron/main.cjs or dist/renderer/index.html is missing)';
if (!built) console.log(skipReason);

/** The marker @electron/fuses looks for, then wire version 1 and 8 fuses in Electron's default states. */
const fuseSentinel = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
const stubElectron = `#!/bin/sh\n# ${fuseSentinel}\x01\x0810110001\nexit 0\n`;

let work: string | undefined;
afterAll(() => (work ? rm(work, { recursive: true, force: true }) : undefined));

/**
 * Packages the app with electron-builder against a stub Electron (the real binary cannot be downloaded
 * here): a real check of electron-builder.yml and of what goes into the asar.
 */
async function packageWithStub(): Promise<string> {
  work = await mkdtemp(path.join(os.tmpdir(), 'rpi-packaging-'));
  const electronDist = path.join(work, 'electron-dist');
  await mkdir(electronDist);
  await writeFile(path.join(electronDist, 'electron'), stubElectron, 'latin1');
  await chmod(path.join(electronDist, 'electron'), 0o755);
  const cli = createRequire(import.meta.url).resolve('electron-builder/cli.js');
  const output = path.join(work, 'release');
  await promisify(execFile)(
    process.execPath,
    [cli, '--linux', 'dir', `-c.electronDist=${electronDist}`, `-c.directories.output=${output}`],
    { cwd: root, timeout: 110_000, maxBuffer: 16 * 1024 * 1024 },
  );
  return path.join(output, 'linux-unpacked');
}

describe.skipIf(!built)('packaging with electron-builder', () => {
  it('builds an unpacked Linux app whose asar holds the app and nothing from development', { timeout: 120_000 }, async () => {
    const unpacked = await packageWithStub();
    const asar = path.join(unpacked, 'resources', 'app.asar');
    expect(existsSync(asar)).toBe(true);

    const files = listPackage(asar, { isPack: false }).map((file) => file.replaceAll('\\', '/'));
    expect(files).toEqual(expect.arrayContaining(['/package.json', '/dist/electron/main.cjs', '/dist/electron/preload.cjs', '/dist/electron/commandLauncher.cjs', '/dist/renderer/index.html']));
    expect(files.filter((file) => file.endsWith('.map'))).toEqual([]);
    expect(files.filter((file) => /\/tests?(\/|$)/.test(file))).toEqual([]);
    expect(files.filter((file) => /^\/(electron|engine|renderer|e2e|scripts)\//.test(file))).toEqual([]);

    // The native DuckDB library of the table tools sits unpacked beside the asar, and loads from there.
    const binding = path.join(unpacked, 'resources', 'app.asar.unpacked', 'node_modules', '@duckdb', `node-bindings-${process.platform}-${process.arch}`);
    expect(existsSync(path.join(binding, 'duckdb.node'))).toBe(true);
    const loaded = await promisify(execFile)(process.execPath, ['-e', `require(${JSON.stringify(path.join(binding, 'duckdb.node'))}); console.log('loaded')`]);
    expect(loaded.stdout.trim()).toBe('loaded');

    // runAsNode, cookie encryption, NODE_OPTIONS, --inspect, asar integrity, asar only, (V8 snapshot unset), file:// privileges
    const executable = await readFile(path.join(unpacked, 'rpi-workbench'), 'latin1');
    const wire = executable.slice(executable.indexOf(fuseSentinel) + fuseSentinel.length + 2).slice(0, 8);
    expect(wire).toBe('01001100');
  });
});
