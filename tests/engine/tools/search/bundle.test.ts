import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { useTempFolders, writeTree } from '../../../support/tempFolder.js';

const repoRoot = path.resolve(import.meta.dirname, '../../../..');

/** The options scripts/build-node.mjs bundles dist/cli/main.cjs and dist/electron/main.cjs with. */
const buildNodeOptions = { bundle: true, platform: 'node', target: 'node20', format: 'cjs', sourcemap: true, packages: 'external' } as const;

/** A tiny program that runs search_files the way the CLI would: its last two arguments are the folder and the pattern. */
const entry = `
import { searchFiles } from './engine/tools/searchFiles.js';
import { Workspace } from './engine/workspace/workspace.js';

void (async () => {
  const [folder, pattern] = process.argv.slice(-2);
  const workspace = await Workspace.at(folder!);
  const context = { workspace, signal: new AbortController().signal, recall: async () => null, childEnv: {}, log: () => {}, maskSecrets: (text: string) => text };
  process.stdout.write((await searchFiles.run(searchFiles.parameters.parse({ pattern }), context)).text);
})();
`;

describe('search worker in the esbuild bundles', () => {
  const tempFolder = useTempFolders('rpi-search-bundle-');

  it('searches from a CommonJS bundle built like the CLI and Electron main, where import.meta.url does not exist', async () => {
    const dir = await tempFolder();
    await writeTree(dir, { 'project/src/a.ts': 'export const needle = 1;\n', 'project/b.txt': 'no match\n' });
    const outfile = path.join(dir, 'entry.cjs');
    const built = await build({
      ...buildNodeOptions,
      stdin: { contents: entry, resolveDir: repoRoot, loader: 'ts', sourcefile: 'bundle-entry.ts' },
      outfile,
      logLevel: 'silent',
    });
    expect(built.warnings).toEqual([]);

    const run = await promisify(execFile)(process.execPath, [outfile, path.join(dir, 'project'), 'need(le)'], {
      env: { ...process.env, NODE_PATH: path.join(repoRoot, 'node_modules') },
    });
    expect(run.stdout).toBe('1 matching line in 1 file:\nsrc/a.ts:1: export const needle = 1;');

    // Workers inherit the host's Node flags; an ES-module host (as `npm run bench` is) must not make the worker ESM.
    const fromModuleHost = await promisify(execFile)(
      process.execPath,
      ['--input-type=module', '-e', `await import(${JSON.stringify(outfile)})`, path.join(dir, 'project'), 'need(le)'],
      { env: { ...process.env, NODE_PATH: path.join(repoRoot, 'node_modules') } },
    );
    expect(fromModuleHost.stdout).toBe(run.stdout);
  });
});
