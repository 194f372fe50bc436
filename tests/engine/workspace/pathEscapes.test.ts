import { lstat, mkdir, readFile, readdir, rename, symlink } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openToolLog } from '../../../engine/store/toolLog.js';
import { executeToolCall } from '../../../engine/tools/executeToolCall.js';
import { writeTree, useTempFolders } from '../../support/tempFolder.js';
import { toolContextFor } from '../../support/toolContext.js';

/** Every file under `root` with its content and mode, so any change outside the project shows up. */
async function fingerprint(root: string): Promise<Record<string, string>> {
  const found: Record<string, string> = {};
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
    const file = path.join(entry.parentPath, entry.name);
    const info = await lstat(file);
    found[path.relative(root, file)] = info.isFile() ? `${info.mode}:${await readFile(file, 'utf8')}` : `${info.mode}:dir`;
  }
  return found;
}

/** A project with a canary beside it (`proj_evil` shares its name as a prefix) and symlinks leading out. */
async function projectWithCanary(base: string) {
  const root = path.join(base, 'proj');
  const outside = path.join(base, 'outside');
  const sibling = path.join(base, 'proj_evil');
  await writeTree(base, {
    'outside/secret.txt': 'CANARY SECRET\n',
    'proj_evil/canary.txt': 'CANARY SIBLING\n',
    'proj/sub/inner.txt': 'inner\n',
    'proj/.git/config': '[core]\n',
    'proj/.workbench/conversation.jsonl': '',
  });
  await symlink(outside, path.join(root, 'link-out'));
  await symlink(path.join(outside, 'secret.txt'), path.join(root, 'file-link'));
  await symlink('chain2', path.join(root, 'chain1'));
  await symlink('../outside', path.join(root, 'chain2'));
  await symlink('.git', path.join(root, 'link-git'));
  return { root, outside, sibling };
}

describe('path containment', () => {
  const tempFolder = useTempFolders();

  it('refuses every escape attempt, names the path as written, and leaves the outside untouched', async () => {
    const base = await tempFolder();
    const { root, outside, sibling } = await projectWithCanary(base);
    const before = { outside: await fingerprint(outside), sibling: await fingerprint(sibling), git: await fingerprint(path.join(root, '.git')) };
    const attempts: [tool: string, args: Record<string, unknown>, requested: string, reason: RegExp][] = [
      ['read_file', { path: '../outside/secret.txt' }, '../outside/secret.txt', /leads outside/],
      ['read_file', { path: path.join(outside, 'secret.txt') }, path.join(outside, 'secret.txt'), /absolute paths are not allowed/],
      ['read_file', { path: '../proj_evil/canary.txt' }, '../proj_evil/canary.txt', /leads outside/],
      ['read_file', { path: path.join(sibling, 'canary.txt') }, path.join(sibling, 'canary.txt'), /absolute/],
      ['read_file', { path: 'sub/../../outside/secret.txt' }, 'sub/../../outside/secret.txt', /leads outside/],
      ['read_file', { path: 'link-out/secret.txt' }, 'link-out/secret.txt', /symlink that leads outside/],
      ['read_file', { path: 'file-link' }, 'file-link', /symlink that leads outside/],
      ['read_file', { path: 'chain1/secret.txt' }, 'chain1/secret.txt', /symlink that leads outside/],
      ['read_file', { path: '..\\outside\\secret.txt' }, '..\\outside\\secret.txt', /leads outside/],
      ['read_file', { path: '~/secret.txt' }, '~/secret.txt', /home-relative/],
      ['read_file', { path: 'C:\\Windows\\win.ini' }, 'C:\\Windows\\win.ini', /absolute/],
      ['read_file', { path: 'sub/inner.txt\0../../x' }, 'sub/inner.txt\0../../x', /NUL/],
      ['get_file_info', { path: '/etc/passwd' }, '/etc/passwd', /absolute/],
      ['list_files', { path: 'link-out' }, 'link-out', /symlink that leads outside/],
      ['get_file_map', { path: '..' }, '..', /leads outside/],
      ['search_files', { pattern: 'CANARY', path: '../outside' }, '../outside', /leads outside/],
      ['write_file', { path: '../outside/new.txt', content: 'x' }, '../outside/new.txt', /leads outside/],
      ['write_file', { path: 'link-out/new.txt', content: 'x' }, 'link-out/new.txt', /symlink that leads outside/],
      ['write_file', { path: 'file-link', content: 'overwritten' }, 'file-link', /symlink that leads outside/],
      ['write_file', { path: '.git/config', content: 'x' }, '.git/config', /\.git\/ belongs to git/],
      ['write_file', { path: 'sub/../.git/hooks/pre-commit', content: 'x' }, 'sub/../.git/hooks/pre-commit', /\.git\//],
      ['write_file', { path: 'link-git/config', content: 'x' }, 'link-git/config', /\.git\//],
      ['write_file', { path: '.workbench/conversation.jsonl', content: 'x' }, '.workbench/conversation.jsonl', /\.workbench\//],
      ['edit_file', { path: 'file-link', old_text: 'CANARY', new_text: 'x' }, 'file-link', /symlink that leads outside/],
      ['delete_file', { path: 'link-out/secret.txt' }, 'link-out/secret.txt', /symlink that leads outside/],
      ['delete_file', { path: '.' }, '.', /project folder itself/],
      ['delete_file', { path: '..' }, '..', /leads outside/],
      ['move_file', { from: 'sub/inner.txt', to: '../outside/moved.txt' }, '../outside/moved.txt', /leads outside/],
      ['move_file', { from: 'link-out/secret.txt', to: 'stolen.txt' }, 'link-out/secret.txt', /symlink that leads outside/],
      ['run_command', { command: 'touch pwned', cwd: '../outside' }, '../outside', /leads outside/],
      ['run_command', { command: 'touch pwned', cwd: 'link-out' }, 'link-out', /symlink that leads outside/],
    ];
    const context = await toolContextFor(root);
    const log = await openToolLog(path.join(root, '.workbench'));

    for (const [tool, args, requested, reason] of attempts) {
      const call = await executeToolCall({ name: tool, arguments: JSON.stringify(args) }, { phase: 'implement', runId: 'r1', context, log });
      expect.soft(call.ok, `${tool} ${JSON.stringify(args)}`).toBe(false);
      expect.soft(call.result, `${tool} ${JSON.stringify(args)}`).toContain(`Refused path "${requested}"`);
      expect.soft(call.result, `${tool} ${JSON.stringify(args)}`).toMatch(reason);
    }

    expect(attempts.length).toBeGreaterThanOrEqual(15);
    const logged = (await readFile(path.join(root, '.workbench', 'tool-log.jsonl'), 'utf8')).trim().split('\n');
    expect(logged.map((line) => JSON.parse(line).ok)).toEqual(attempts.map(() => false));
    expect(await fingerprint(outside)).toEqual(before.outside);
    expect(await fingerprint(sibling)).toEqual(before.sibling);
    expect(await fingerprint(path.join(root, '.git'))).toEqual(before.git);
    expect(await readdir(root)).not.toContain('pwned');
  });

  it('catches a folder swapped for a symlink after the path was checked, for reads and writes', async () => {
    const base = await tempFolder();
    const { root, outside } = await projectWithCanary(base);
    await writeTree(outside, { 'inner.txt': 'CANARY via swap\n' });
    const before = await fingerprint(outside);
    const { workspace } = await toolContextFor(root);
    const checkedRead = await workspace.resolve('sub/inner.txt', 'read');
    const checkedWrite = await workspace.resolve('sub/new.txt', 'write');

    await rename(path.join(root, 'sub'), path.join(root, 'sub-moved'));
    await symlink(outside, path.join(root, 'sub'));

    await expect(workspace.readFile(checkedRead)).rejects.toThrow('Refused path "sub/inner.txt": it changed while in use');
    await expect(workspace.writeFile(checkedWrite, 'x')).rejects.toThrow('Refused path "sub/new.txt": it changed while in use');
    const checkedDelete = await workspace.resolve('sub-moved/inner.txt', 'write');
    await rename(path.join(root, 'sub-moved'), path.join(root, 'sub-gone'));
    await symlink(outside, path.join(root, 'sub-moved'));
    await expect(workspace.remove(checkedDelete)).rejects.toThrow('Refused path "sub-moved/inner.txt": it changed while in use');
    expect(await fingerprint(outside)).toEqual(before);
  });

  it('catches a file swapped for a symlink between the check and the open', async () => {
    const base = await tempFolder();
    const { root, outside } = await projectWithCanary(base);
    const { workspace } = await toolContextFor(root);
    const checked = await workspace.resolve('sub/inner.txt', 'read');

    await rename(path.join(root, 'sub', 'inner.txt'), path.join(root, 'sub', 'old.txt'));
    await symlink(path.join(outside, 'secret.txt'), path.join(root, 'sub', 'inner.txt'));

    await expect(workspace.readFile(checked)).rejects.toThrow(/Refused path "sub\/inner.txt"/);
  });

  it('follows symlinks that stay inside the folder', async () => {
    const root = await tempFolder();
    await writeTree(root, { 'docs/guide.md': 'guide\n' });
    await mkdir(path.join(root, 'links'));
    await symlink('../docs', path.join(root, 'links', 'docs'));
    const { workspace } = await toolContextFor(root);

    const target = await workspace.resolve('links/docs/guide.md', 'write');
    await workspace.writeFile(target, 'rewritten\n');

    expect(target.rel).toBe('docs/guide.md');
    expect(await readFile(path.join(root, 'docs', 'guide.md'), 'utf8')).toBe('rewritten\n');
    expect((await lstat(path.join(root, 'links', 'docs'))).isSymbolicLink()).toBe(true);
  });
});
