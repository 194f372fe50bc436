import { lstat, mkdir, readdir, symlink } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useCli } from '../../support/cliProcess.js';
import { useFakeLlm } from '../../support/fakeLlm/useFakeLlm.js';
import { useTempFolders, writeTree } from '../../support/tempFolder.js';

/** Every entry under `root` (links not followed) with its kind, size and modification time. */
async function listing(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  const rows = await Promise.all(
    entries.map(async (entry) => {
      const file = path.join(entry.parentPath, entry.name);
      const stats = await lstat(file);
      return `${path.relative(root, file)} ${stats.mode.toString(8)} ${stats.size} ${stats.mtimeMs}`;
    }),
  );
  return [`. ${(await lstat(root)).mtimeMs}`, ...rows.sort()];
}

describe('history and diff on a folder the workbench never used', { timeout: 120_000 }, () => {
  const tempFolder = useTempFolders('rpi-cli-read-only-');
  const llm = useFakeLlm();
  const cli = useCli();

  it('say there is nothing yet and leave the folder exactly as it was, in every form', async () => {
    const root = await tempFolder();
    await writeTree(root, { 'README.md': '# demo\n', 'src/index.ts': 'export {};\n' });
    const before = await listing(root);

    const noMessages = { code: 0, stdout: '', stderr: `No messages yet in ${root}.\n` };
    const noRequests = { code: 0, stdout: '', stderr: `No requests yet in ${root}, so nothing changed.\n` };
    const noSuchMessage = { code: 2, stdout: '', stderr: `rpi-workbench: No requests yet in ${root}, so there is no message "m-1".\n` };
    const forms: [string[], object][] = [
      [['history', root], noMessages],
      [['history', root, '--json'], { code: 0, stdout: '', stderr: '' }],
      [['history', root, '--plan', 'm-1'], noSuchMessage],
      [['history', root, '--research', 'm-1'], noSuchMessage],
      [['diff', root], noRequests],
      [['diff', root, '--stat'], noRequests],
      [['diff', root, '--json', '--since'], noRequests],
      [['diff', root, 'm-1'], noSuchMessage],
    ];
    const answers = await Promise.all(forms.map(([args]) => cli.run(args)));

    answers.forEach((answer, index) => expect(answer).toMatchObject(forms[index]![1]));
    expect(await listing(root)).toEqual(before);
  });

  it('a planted .workbench link is still refused, with the same sentence as run, and nothing is created behind it', async () => {
    const [root, outside] = await Promise.all([tempFolder(), tempFolder()]);
    await symlink(outside, path.join(root, '.workbench'));
    const run = await cli.run(['run', root, 'Look around', '--base-url', llm().baseUrl, '--model', 'fake-model']);
    expect(run.code).toBe(2);
    const refusal = run.stderr.split('\n').find((line) => line.startsWith('rpi-workbench: Cannot open'));
    expect(refusal).toMatch(/\.workbench is a symlink \(to .*\)\. .*remove/);

    const forms = [['history', root], ['history', root, '--plan', 'm-1'], ['diff', root], ['diff', root, '--stat']];
    for (const refused of await Promise.all(forms.map((args) => cli.run(args)))) {
      expect(refused).toMatchObject({ code: 2, stdout: '', stderr: `${refusal}\n` });
    }
    expect(await readdir(outside)).toEqual([]);
  });

  it('a .workbench that is a plain file is refused the same way', async () => {
    const root = await tempFolder();
    await writeTree(root, { '.workbench': 'not a folder\n' });
    await mkdir(path.join(root, 'src'));
    const before = await listing(root);

    for (const refused of await Promise.all([cli.run(['history', root]), cli.run(['diff', root])])) {
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(/^rpi-workbench: Cannot open .*\.workbench is a file.*remove/);
    }
    expect(await listing(root)).toEqual(before);
  });
});
