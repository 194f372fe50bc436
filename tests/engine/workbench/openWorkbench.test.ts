import { chmod, mkdir, readFile, readdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FolderError, openWorkbench } from '../../../engine/index.js';
import { useOpenedWorkbenches } from '../../support/openedWorkbenches.js';
import { useTempFolders, writeTree } from '../../support/tempFolder.js';
import { useEngineChildren } from '../../support/engineChild.js';

describe('openWorkbench', () => {
  const tempFolder = useTempFolders();
  const startChild = useEngineChildren(tempFolder);
  const open = useOpenedWorkbenches();

  describe('refuses what it cannot open, saying why', () => {
    it('a folder that does not exist', async () => {
      const missing = path.join(await tempFolder(), 'nope');
      await expect(openWorkbench(missing)).rejects.toThrow(new FolderError(`Folder not found: ${missing}`));
    });

    it('a path that runs through a file', async () => {
      const root = await tempFolder();
      await writeTree(root, { 'notes.txt': 'hi' });
      const below = path.join(root, 'notes.txt', 'inner');
      await expect(openWorkbench(below)).rejects.toThrow(`Folder not found: ${below}`);
    });

    it('a file', async () => {
      const root = await tempFolder();
      await writeTree(root, { 'notes.txt': 'hi' });
      const file = path.join(root, 'notes.txt');
      const error = await openWorkbench(file).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(FolderError);
      expect((error as Error).message).toBe(`${file} is a file, not a folder: choose the project folder that contains it.`);
      expect(await readdir(root)).toEqual(['notes.txt']);
    });

    it.each(['', '   '])('an empty path %j', async (folder) => {
      await expect(openWorkbench(folder)).rejects.toThrow(new FolderError('No folder given: choose a project folder to open.'));
    });

    it.skipIf(process.platform === 'win32')('a folder the user may not read or write', async () => {
      const root = await tempFolder();
      await chmod(root, 0o755);
      const locked = path.join(root, 'locked');
      await mkdir(locked, { mode: 0o700 });
      const hidden = path.join(root, 'private');
      await mkdir(path.join(hidden, 'inside'), { recursive: true, mode: 0o700 });
      const behindHidden = path.join(hidden, 'inside');

      if (process.getuid?.() === 0) {
        // Root reads everything, so the check has to run as an ordinary user in another process.
        const child = await startChild(
          `const { openWorkbench } = await import(process.env.ENGINE_URL as string);
           process.setgroups([65534]);
           process.setgid(65534);
           process.setuid(65534);
           for (const folder of process.argv.slice(2)) {
             try {
               await openWorkbench(folder);
               console.log('opened ' + folder);
             } catch (error) {
               console.log(error.name + ': ' + error.message);
             }
           }`,
          [locked, behindHidden],
        );
        const { code, stdout, stderr } = await child.exited;
        expect(stderr).toBe('');
        expect(code).toBe(0);
        expect(stdout.trim().split('\n')).toEqual([
          `FolderError: Cannot open ${locked}: it must be readable and writable by you.`,
          `FolderError: Cannot open ${behindHidden}: permission denied.`,
        ]);
      } else {
        await chmod(locked, 0o500);
        try {
          await expect(openWorkbench(locked)).rejects.toThrow(`Cannot open ${locked}: it must be readable and writable by you.`);
        } finally {
          await chmod(locked, 0o700);
        }
      }
      expect(await readdir(locked)).toEqual([]);
    });
  });

  describe('.workbench/', () => {
    it('is created with a .gitignore of "*" and the lock, leaving the user’s .gitignore alone', async () => {
      const root = await tempFolder();
      await writeTree(root, { '.gitignore': 'node_modules/\n# mine\n' });
      await open(root);

      expect(await readFile(path.join(root, '.workbench', '.gitignore'), 'utf8')).toBe('*\n');
      expect(await readFile(path.join(root, '.gitignore'), 'utf8')).toBe('node_modules/\n# mine\n');
      expect((await readdir(path.join(root, '.workbench'))).sort()).toEqual(['.gitignore', 'checkpoints', 'lock']);
    });

    it('has its .gitignore repaired when it says something else', async () => {
      const root = await tempFolder();
      await writeTree(root, { '.workbench/.gitignore': 'conversation.jsonl\n' });
      await open(root);
      expect(await readFile(path.join(root, '.workbench', '.gitignore'), 'utf8')).toBe('*\n');
    });

    it('does not create a .gitignore for the user', async () => {
      const root = await tempFolder();
      await open(root);
      expect(await readdir(root)).toEqual(['.workbench']);
    });
  });

  describe('snapshot', () => {
    it('names the real folder, also when opened through a symlink', async () => {
      const parent = await tempFolder();
      const real = path.join(parent, 'My Project');
      await mkdir(real);
      const link = path.join(parent, 'shortcut');
      await symlink(real, link, 'dir');

      const workbench = await open(link);
      const snapshot = await workbench.request('workbench:snapshot');

      expect(workbench.folder).toBe(real);
      expect(snapshot).toMatchObject({ folder: real, name: 'My Project', running: false, lastSeq: 0, warnings: [] });
    });

    it('is empty for a new folder', async () => {
      const root = await tempFolder();
      const snapshot = await (await open(root)).request('workbench:snapshot');
      expect(snapshot).toMatchObject({
        fileCount: 0,
        conversation: [],
        rpi: { hasResearch: false, hasPlan: false, items: [], originalCount: null, allDone: false },
      });
    });

    it('counts the files git would see: root and nested .gitignore, negations, folder patterns', async () => {
      const root = await tempFolder();
      await writeTree(root, {
        '.gitignore': '*.log\n!keep.log\nbuild/\n/top-only.txt\n',
        'a.txt': '', // counted
        'debug.log': '',
        'keep.log': '', // counted: re-included
        'build/out.js': '',
        'top-only.txt': '',
        'src/build/deep.js': '', // `build/` matches at any depth
        'src/top-only.txt': '', // counted: the pattern is anchored to the root
        'src/.gitignore': 'secret.txt\n!important.log\n', // counted
        'src/secret.txt': '',
        'src/important.log': '', // counted: the deeper .gitignore overrides the root's *.log
        'src/other.log': '',
        'src/lib/secret.txt': '', // the nested .gitignore applies below it too
        'src/lib/code.ts': '', // counted
        'docs/secret.txt': '', // counted: src/.gitignore does not reach here
        '.git/config': '',
        '.git/objects/ab/cdef': '',
        'src/.git/HEAD': '',
      });
      const snapshot = await (await open(root)).request('workbench:snapshot');
      expect(snapshot.fileCount).toBe(8);
    });

    it('never counts .workbench/, even with its own files inside', async () => {
      const root = await tempFolder();
      await writeTree(root, { 'one.txt': '', '.workbench/rpi/research.md': 'notes', '.workbench/conversation.jsonl': '' });
      expect((await (await open(root)).request('workbench:snapshot')).fileCount).toBe(1);
    });

    it('loads the conversation, skipping a corrupt line and reporting a torn last one', async () => {
      const root = await tempFolder();
      const first = { id: 'm1', role: 'user', text: 'Categorise my bank statement', ts: 1 };
      const third = { id: 'm3', role: 'assistant', text: 'Done: 3 files written.', ts: 3 };
      await writeTree(root, {
        '.workbench/conversation.jsonl': [JSON.stringify(first), '{"id": "m2", "role": ', JSON.stringify(third), '{"id":"m4","ro'].join('\n'),
      });

      const snapshot = await (await open(root)).request('workbench:snapshot');

      expect(snapshot.conversation).toEqual([first, third]);
      expect(snapshot.warnings).toEqual([
        'conversation.jsonl: skipped corrupt line 2 (not valid JSON)',
        'conversation.jsonl: line 4 is an incomplete write and will be cut off (not valid JSON)',
      ]);
    });

    it('reports the RPI state from .workbench/rpi/', async () => {
      const root = await tempFolder();
      await writeTree(root, {
        '.workbench/rpi/research.md': '# Research\nbank.csv has 3 columns\n',
        '.workbench/rpi/plan.md': [
          '# Execution Plan',
          '<!-- original_count: 2 -->',
          '',
          '## Items',
          '- [x] 1. Parse statement — read bank.csv',
          '- [!] 2. Write workbook — one sheet per month [Failed: disk full]',
          '',
        ].join('\n'),
      });

      const { rpi } = await (await open(root)).request('workbench:snapshot');

      expect(rpi).toEqual({
        hasResearch: true,
        hasPlan: true,
        originalCount: 2,
        allDone: true,
        items: [
          { index: 0, number: 1, label: 'Parse statement', description: 'read bank.csv', status: 'done', rawLine: '- [x] 1. Parse statement — read bank.csv' },
          {
            index: 1,
            number: 2,
            label: 'Write workbook',
            description: 'one sheet per month',
            status: 'failed',
            failure: 'disk full',
            rawLine: '- [!] 2. Write workbook — one sheet per month [Failed: disk full]',
          },
        ],
      });
    });

    it('reads the folder again each time', async () => {
      const root = await tempFolder();
      const workbench = await open(root);
      expect((await workbench.request('workbench:snapshot')).fileCount).toBe(0);
      await writeTree(root, { 'new.txt': 'x' });
      expect((await workbench.request('workbench:snapshot')).fileCount).toBe(1);
    });
  });

  describe('subscribe and close', () => {
    it('subscribe hands back an unsubscribe function', async () => {
      const workbench = await open(await tempFolder());
      const unsubscribe = workbench.subscribe(() => undefined);
      expect(typeof unsubscribe).toBe('function');
      expect(() => unsubscribe()).not.toThrow();
    });

    it('close() releases the lock, may be called twice, and later calls fail clearly', async () => {
      const root = await tempFolder();
      const workbench = await openWorkbench(root);
      await workbench.close();
      await workbench.close();

      expect((await readdir(path.join(root, '.workbench'))).sort()).toEqual(['.gitignore', 'checkpoints']);
      const closed = `The workbench for ${root} is closed.`;
      await expect(workbench.request('workbench:snapshot')).rejects.toThrow(closed);
      expect(() => workbench.subscribe(() => undefined)).toThrow(closed);
    });
  });

  it('keeps the user’s files untouched', async () => {
    const root = await tempFolder();
    await writeTree(root, { 'a.txt': 'alpha', 'sub/b.txt': 'beta' });
    await writeFile(path.join(root, '.gitignore'), 'x\n');
    const workbench = await open(root);
    await workbench.request('workbench:snapshot');
    await workbench.close();
    expect(await readFile(path.join(root, 'a.txt'), 'utf8')).toBe('alpha');
    expect(await readFile(path.join(root, 'sub', 'b.txt'), 'utf8')).toBe('beta');
    expect((await readdir(root)).sort()).toEqual(['.gitignore', '.workbench', 'a.txt', 'sub']);
  });
});
