import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { diffLines } from '../../../engine/diff/lineDiff.js';
import { useTempFolders } from '../../support/tempFolder.js';

const repoRoot = path.resolve(import.meta.dirname, '../../..');

/** The options scripts/build-node.mjs bundles dist/cli/main.cjs and dist/electron/main.cjs with. */
const buildNodeOptions = { bundle: true, platform: 'node', target: 'node20', format: 'cjs', sourcemap: true, packages: 'external' } as const;

/** A tiny program that diffs on the diff worker, as the CLI would: the old text given, the new one read from the file named last. */
const entry = `
import { diffOffThread } from './engine/diff/diffThread.js';

void (async () => {
  const file = process.argv.at(-1)!;
  const result = await diffOffThread({ before: { bytes: Buffer.from('one\\ntwo\\nthree\\n') }, after: { file }, context: 1 });
  process.stdout.write(JSON.stringify(result.lines));
})();
`;

describe('diff worker in the esbuild bundles', () => {
  const tempFolder = useTempFolders('rpi-diff-bundle-');

  it('diffs from a CommonJS bundle built like the CLI and Electron main, as it does here', async () => {
    const dir = await tempFolder();
    const file = path.join(dir, 'now.txt');
    await writeFile(file, 'one\nTWO\nthree\nfour\n');
    const outfile = path.join(dir, 'entry.cjs');
    const built = await build({ ...buildNodeOptions, stdin: { contents: entry, resolveDir: repoRoot, loader: 'ts', sourcefile: 'bundle-entry.ts' }, outfile, logLevel: 'silent' });
    expect(built.warnings).toEqual([]);

    const env = { ...process.env, NODE_PATH: path.join(repoRoot, 'node_modules') };
    const run = await promisify(execFile)(process.execPath, [outfile, file], { env });
    expect(JSON.parse(run.stdout)).toEqual(diffLines('one\ntwo\nthree\n', 'one\nTWO\nthree\nfour\n', { context: 1 }));

    // Workers inherit the host's Node flags; an ES-module host (as `npm run bench` is) must not make the worker ESM.
    const fromModuleHost = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', `await import(${JSON.stringify(outfile)})`, file], { env });
    expect(fromModuleHost.stdout).toBe(run.stdout);
  });
});
