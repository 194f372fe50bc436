import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { diffFiles } from '../../../engine/diff/fileDiff.js';
import { gitPatch } from '../../../engine/diff/gitPatch.js';
import { diffLines } from '../../../engine/diff/lineDiff.js';
import { nodeBundle, nodeBundles } from '../../../scripts/nodeBundles.mjs';
import { folderBeforeRequest } from '../../support/requestBefore.js';
import { useTempFolders } from '../../support/tempFolder.js';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const run = promisify(execFile);

/** A program bundled beside the CLI's: one diff on the diff worker (the old text given, the new read from the file named last), and the worker's counts. */
const probe = `
import { diffOffThread, diffsOffThread } from './engine/diff/diffThread.js';

void (async () => {
  const file = process.argv.at(-1)!;
  const result = await diffOffThread({ before: { bytes: Buffer.from('one\\ntwo\\nthree\\n') }, after: { file }, context: 1 });
  process.stdout.write(JSON.stringify({ lines: result.lines, counts: diffsOffThread() }));
})();
`;

/** 60,000 lines (about 2.5 MB, so diffed on the worker); `changed` rewrites the lines it is true for. */
const bigText = (changed: (line: number) => boolean) => Array.from({ length: 60_000 }, (_, line) => `line ${line} ${changed(line) ? 'changed' : 'as it was'}\n`).join('');

describe('the diff worker built into dist/workers', () => {
  const tempFolder = useTempFolders('rpi-diff-bundle-');

  /** The Node bundles of `npm run build`, built into a temporary dist/ (npm packages found through NODE_PATH, as next to the app). */
  async function builtDist() {
    const dist = path.join(await tempFolder(), 'dist');
    const { cli, workers } = nodeBundles(dist);
    const probeFile = path.join(dist, 'probe', 'probe.cjs');
    const probeBuild = { ...nodeBundle('probe.ts', probeFile), entryPoints: undefined, stdin: { contents: probe, resolveDir: repoRoot, loader: 'ts' as const, sourcefile: 'probe.ts' } };
    const results = await Promise.all([cli, ...workers, probeBuild].map((options) => build({ ...options, absWorkingDir: repoRoot, logLevel: 'silent' })));
    expect(results.flatMap((result) => result.warnings)).toEqual([]);
    return { dist, probeFile, env: { ...process.env, NODE_PATH: path.join(repoRoot, 'node_modules') } };
  }

  it('is found beside a bundle and diffs there, from a CommonJS host and from an ES-module one', async () => {
    const { probeFile, env } = await builtDist();
    const file = path.join(await tempFolder(), 'now.txt');
    await writeFile(file, 'one\nTWO\nthree\nfour\n');

    const fromBundle = await run(process.execPath, [probeFile, file], { env });
    expect(JSON.parse(fromBundle.stdout)).toEqual({ lines: diffLines('one\ntwo\nthree\n', 'one\nTWO\nthree\nfour\n', { context: 1 }), counts: { sent: 1, computed: 1 } });

    // Workers inherit the host's Node flags unless told otherwise; an ES-module host (as `npm run bench` is) must not make the worker ESM.
    const fromModuleHost = await run(process.execPath, ['--input-type=module', '-e', `await import(${JSON.stringify(probeFile)})`, file], { env });
    expect(fromModuleHost.stdout).toBe(fromBundle.stdout);
  });

  it('the built CLI prints the diff of a file over 1 MB, the one computed here', async () => {
    const { dist, env } = await builtDist();
    const root = await tempFolder();
    const before = bigText(() => false);
    await folderBeforeRequest(root, { 'big.txt': before });
    await writeFile(path.join(root, 'big.txt'), bigText((line) => line % 500 === 0));

    const printed = await run(process.execPath, [path.join(dist, 'cli', 'main.cjs'), 'diff', root, '--json'], { env: { ...env, RPI_WORKBENCH_CONFIG_DIR: await tempFolder() } });
    const file = (text: string) => ({ kind: 'file' as const, mode: 0o644, size: Buffer.byteLength(text), bytes: Buffer.from(text) });
    const here = diffFiles({ path: 'big.txt', before: file(before), after: file(await readFile(path.join(root, 'big.txt'), 'utf8')), context: 3 });
    expect(JSON.parse(printed.stdout)).toMatchObject({ path: 'big.txt', status: 'modified', added: 120, removed: 120, patch: gitPatch(here) });
  });
});
