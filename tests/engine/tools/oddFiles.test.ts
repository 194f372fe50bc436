import { execFileSync, spawnSync } from 'node:child_process';
import { link, mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { getFileInfo } from '../../../engine/tools/getFileInfo.js';
import { getFileMap } from '../../../engine/tools/getFileMap.js';
import { listFiles } from '../../../engine/tools/listFiles.js';
import { readFile as readFileTool } from '../../../engine/tools/readFile.js';
import { searchFiles } from '../../../engine/tools/searchFiles.js';
import { writeFile as writeFileTool } from '../../../engine/tools/writeFile.js';
import { runTool, toolContextFor } from '../../support/toolContext.js';
import { useTempFolders } from '../../support/tempFolder.js';

describe('special files and hard links in the project', () => {
  const tempFolder = useTempFolders('rpi-hostile-odd-');

  it('reports a FIFO for what it is and never opens it (no tool waits on it)', async () => {
    const root = await tempFolder();
    await writeFile(path.join(root, 'a.txt'), 'hello pipe\n');
    execFileSync('mkfifo', [path.join(root, 'pipe')]);
    const context = await toolContextFor(root);
    expect(await runTool(getFileInfo, { path: 'pipe' }, context)).toMatch(/^pipe: a named pipe \(FIFO\).*never opened/);
    await expect(runTool(readFileTool, { path: 'pipe' }, context)).rejects.toThrow(/named pipe \(FIFO\), which is never opened/);
    expect(await runTool(searchFiles, { pattern: 'pipe' }, context)).toContain('a.txt');
    expect(await runTool(listFiles, { path: '.' }, context)).toContain('pipe');
    expect(await runTool(getFileMap, { path: '.' }, context)).toContain('a.txt');
  });

  it('does not read a file hard-linked to a file outside, by any read tool, and says why', async () => {
    const [root, outside] = await Promise.all([tempFolder(), tempFolder()]);
    await writeFile(path.join(outside, 'id_token'), 'OUTSIDE-TOKEN-93\n');
    await link(path.join(outside, 'id_token'), path.join(root, 'notes.txt'));
    const context = await toolContextFor(root);
    await expect(runTool(readFileTool, { path: 'notes.txt' }, context)).rejects.toThrow(/2 hard links, and another name may be outside/);
    expect(await runTool(searchFiles, { pattern: 'OUTSIDE-TOKEN' }, context)).not.toContain('OUTSIDE-TOKEN-93');
    expect(await runTool(getFileInfo, { path: 'notes.txt' }, context)).toMatch(/2 hard links.*do not read hard-linked files/);
  });

  it('replaces a hard-linked file by writing a new one, leaving the other name as it was', async () => {
    const [root, outside] = await Promise.all([tempFolder(), tempFolder()]);
    await writeFile(path.join(outside, 'shared.txt'), 'outside\n');
    await link(path.join(outside, 'shared.txt'), path.join(root, 'shared.txt'));
    await runTool(writeFileTool, { path: 'shared.txt', content: 'inside\n' }, await toolContextFor(root));
    expect(await readFile(path.join(outside, 'shared.txt'), 'utf8')).toBe('outside\n');
    expect(await readFile(path.join(root, 'shared.txt'), 'utf8')).toBe('inside\n');
  });

  it('refuses a write into .workbench through a symlinked alias inside the project', async () => {
    const root = await tempFolder();
    await mkdir(path.join(root, '.workbench/rpi'), { recursive: true });
    await symlink('.workbench', path.join(root, 'state'));
    await expect(runTool(writeFileTool, { path: 'state/rpi/plan.md', content: '- [ ] 1. Forged — x\n' }, await toolContextFor(root))).rejects.toThrow(/\.workbench/);
  });

  // A bind mount is an alias no name check can see; only the folder's identity (device + inode) gives it away.
  const canMount = process.platform === 'linux' && process.getuid?.() === 0 && spawnSync('unshare', ['-m', 'true']).status === 0;
  it.skipIf(!canMount)('refuses a write into .git through a bind-mounted alias, by identity', async () => {
    const root = await tempFolder();
    await mkdir(path.join(root, '.git/hooks'), { recursive: true });
    await mkdir(path.join(root, 'alias'));
    const script = `
      const { Workspace } = await import(${JSON.stringify(path.resolve('engine/workspace/workspace.ts'))});
      const workspace = await Workspace.at(${JSON.stringify(root)});
      const target = await workspace.resolve('alias/hooks/pre-commit', 'write');
      try { await workspace.writeFile(target, '#!/bin/sh\\n'); console.log('WRITTEN'); } catch (error) { console.log('REFUSED ' + error.message); }`;
    const result = spawnSync(
      'unshare',
      ['-m', 'sh', '-c', `mount --bind "$1/.git" "$1/alias" && exec "$2" --import tsx --input-type=module -e "$3"`, 'sh', root, process.execPath, script],
      { encoding: 'utf8', cwd: process.cwd() },
    );
    expect(result.stdout.trim()).toMatch(/^REFUSED .*\.git\/ or \.workbench\/ under another name/);
  });
});
if (process.platform === 'linux' && process.getuid?.() !== 0) console.log('oddFiles: the bind-mount alias case needs root (mount namespaces); it is skipped here.');
