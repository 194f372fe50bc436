import { mkdir, symlink } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { atWords, resolveContextItems } from '../../../cli/commands/contextOption.js';
import { CliError } from '../../../cli/commands/cliError.js';
import { useTempFolders, writeTree } from '../../support/tempFolder.js';

describe('resolveContextItems (--context and @path words)', () => {
  const tempFolder = useTempFolders('rpi-cli-context-');

  async function project(): Promise<string> {
    const root = await tempFolder();
    await writeTree(root, { 'src/app.ts': 'x\n', 'docs/guide.md': '# g\n', 'notes.txt': 'n\n', '.workbench/conversation.jsonl': '' });
    await mkdir(path.join(root, 'node_modules', '@types', 'other'), { recursive: true });
    return root;
  }

  it('turns --context paths (relative, or absolute inside the folder) into file and folder items, in order, once each', async () => {
    const root = await project();
    expect(await resolveContextItems(root, ['src/app.ts', './docs/', path.join(root, 'notes.txt'), 'src/app.ts'], 'do it')).toEqual([
      { kind: 'file', path: 'src/app.ts' },
      { kind: 'folder', path: 'docs' },
      { kind: 'file', path: 'notes.txt' },
    ]);
  });

  it('turns @path words naming something in the folder into items, and leaves other @words as text', async () => {
    const root = await project();
    const request = 'Fix @src/app.ts, see @docs. Mail me@example.com; install @types/node and ping @alice about @notes.txt';
    expect(atWords(request)).toEqual(['src/app.ts,', 'docs.', 'types/node', 'alice', 'notes.txt']);
    expect(await resolveContextItems(root, ['notes.txt'], request)).toEqual([
      { kind: 'file', path: 'notes.txt' },
      { kind: 'file', path: 'src/app.ts' },
      { kind: 'folder', path: 'docs' },
    ]);
    expect(await resolveContextItems(root, [], 'nothing attached @../etc/passwd @/etc/passwd @.workbench/conversation.jsonl')).toEqual([]);
  });

  it('refuses a --context path that is not there, leaves the folder, or is the workbench’s own state, in one sentence naming it', async () => {
    const root = await project();
    const outside = await tempFolder();
    await symlink(outside, path.join(root, 'elsewhere'));
    const refusal = (paths: string[]) => resolveContextItems(root, paths, 'x').then(() => null, (error: unknown) => error);
    const missing = await refusal(['src/nope.ts']);
    expect(missing).toBeInstanceOf(CliError);
    expect((missing as CliError).exitCode).toBe(2);
    expect((missing as CliError).message).toBe(`--context src/nope.ts: there is no such file or folder in ${root} (paths are relative to the project folder).`);
    expect((await refusal(['../x']) as Error).message).toBe('--context ../x cannot be attached: it leads outside the project folder.');
    expect((await refusal([path.join(outside, 'y')]) as Error).message).toBe(`--context ${path.join(outside, 'y')} cannot be attached: it leads outside the project folder.`);
    expect((await refusal(['elsewhere']) as Error).message).toMatch(/^--context elsewhere cannot be attached: it is reached through a symlink that leads outside the project folder/);
    expect((await refusal(['.workbench']) as Error).message).toBe('--context .workbench cannot be attached: .workbench/ is never attached; it holds the workbench’s own state.');
  });

  it('refuses more items than a request may carry', async () => {
    const root = await project();
    await writeTree(root, Object.fromEntries(Array.from({ length: 21 }, (_, index) => [`f${index}.txt`, ''])));
    const paths = Array.from({ length: 21 }, (_, index) => `f${index}.txt`);
    await expect(resolveContextItems(root, paths, 'x')).rejects.toThrow('Too many context items: at most 20 can be attached to one request.');
  });
});
