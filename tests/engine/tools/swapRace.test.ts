import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CheckpointStore } from '../../../engine/checkpoints/checkpointStore.js';
import { deleteFile } from '../../../engine/tools/deleteFile.js';
import { moveFile } from '../../../engine/tools/moveFile.js';
import { readFile as readFileTool } from '../../../engine/tools/readFile.js';
import { searchFiles } from '../../../engine/tools/searchFiles.js';
import { writeFile as writeFileTool } from '../../../engine/tools/writeFile.js';
import { runTool, toolContextFor } from '../../support/toolContext.js';
import { useTempFolders } from '../../support/tempFolder.js';

const rounds = 600;
/** The race is bounded in time as well as in rounds, so a slow machine ends it early rather than late. */
const maxMillis = 10_000;
const secret = 'OUTSIDE-SECRET-7f3a';

/**
 * Another process on the machine flips `box` between a real folder and a symlink to a folder outside
 * the project, as fast as it can, while the tools and a restore work in it. Whatever the timing, nothing
 * outside may be read, written, deleted or moved, and no temp file may appear there.
 */
describe('a folder swapped for a symlink while tools work in it', () => {
  const tempFolder = useTempFolders('rpi-hostile-race-');
  const flippers: ChildProcess[] = [];
  afterEach(() => {
    for (const flipper of flippers.splice(0)) flipper.kill('SIGKILL');
  });

  function startFlipper(root: string, outside: string): ChildProcess {
    const script = `
      const fs = require('node:fs');
      process.chdir(${JSON.stringify(root)});
      fs.symlinkSync(${JSON.stringify(outside)}, 'box.link');
      process.send('ready');
      // Each state is entered by one rename, so \`box\` is a real folder or the symlink almost all the time.
      for (;;) {
        try { fs.renameSync('box', 'box.real'); fs.renameSync('box.link', 'box'); } catch {}
        try { fs.renameSync('box', 'box.link'); fs.renameSync('box.real', 'box'); } catch {}
      }`;
    const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    flippers.push(child);
    return child;
  }

  async function outsideFiles(outside: string): Promise<Record<string, string>> {
    const names = (await readdir(outside)).sort();
    return Object.fromEntries(await Promise.all(names.map(async (name) => [name, await readFile(path.join(outside, name), 'utf8')] as const)));
  }

  it('never reads, writes, deletes or moves anything outside, and restores only inside', { timeout: 60_000 }, async () => {
    const [root, outside] = await Promise.all([tempFolder(), tempFolder()]);
    await mkdir(path.join(root, 'box'));
    await writeFile(path.join(root, 'box/secret.txt'), 'inside\n');
    const canaries: Record<string, string> = { 'secret.txt': `${secret}\n`, 'canary.txt': `${secret} canary\n` };
    for (let round = 0; round < rounds; round += 1) canaries[`f${round}.txt`] = `${secret} f${round}\n`;
    for (let round = 0; round < 40; round += 1) canaries[`new${round}.txt`] = `${secret} new${round}\n`;
    for (const [name, content] of Object.entries(canaries)) await writeFile(path.join(outside, name), content);

    const store = await CheckpointStore.open(root, path.join(root, '.workbench'));
    const before = await store.snapshot({ reason: 'run', messageId: 'm-1' });
    for (let round = 0; round < 40; round += 1) await writeFile(path.join(root, `box/new${round}.txt`), 'made after the checkpoint\n');

    const context = await toolContextFor(root);
    const flipper = startFlipper(root, outside);
    await new Promise((resolve) => flipper.once('message', resolve));
    const results: string[] = [];
    const attempt = async (run: () => Promise<string>) => results.push(await run().catch((error: Error) => error.message));
    const started = Date.now();
    for (let round = 0; round < rounds && Date.now() - started < maxMillis; round += 1) {
      await attempt(() => runTool(writeFileTool, { path: `box/f${round}.txt`, content: 'written by the tool\n' }, context));
      await attempt(() => runTool(readFileTool, { path: 'box/secret.txt' }, context));
      await attempt(() => runTool(searchFiles, { pattern: 'SECRET', path: 'box' }, context));
      await attempt(() => runTool(deleteFile, { path: `box/f${round}.txt` }, context));
      await attempt(() => runTool(moveFile, { from: 'box/canary.txt', to: `taken${round}.txt` }, context));
      if (round % 25 === 0) await store.snapshot({ reason: 'tool', messageId: 'm-1', runId: 'r', tool: 'race' });
      if (round % 50 === 0) await store.restore(before.id).catch((error: Error) => results.push(error.message));
    }
    flipper.kill('SIGKILL');

    expect(results.length).toBeGreaterThan(50);
    expect(results.filter((result) => result.includes(secret))).toEqual([]);
    expect(await outsideFiles(outside)).toEqual(Object.fromEntries(Object.entries(canaries).sort(([a], [b]) => (a < b ? -1 : 1))));
    const stored = await readdir(path.join(root, '.workbench/checkpoints/objects'), { recursive: true, withFileTypes: true });
    for (const entry of stored.filter((e) => e.isFile())) expect(await readFile(path.join(entry.parentPath, entry.name), 'utf8')).not.toContain(secret);
  });
});
