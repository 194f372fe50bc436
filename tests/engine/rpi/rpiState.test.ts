import { watch, type FSWatcher } from 'node:fs';
import { open, readFile, readdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  clearRpiState,
  completeItem,
  markItem,
  readPlan,
  readResearch,
  readRpiState,
  removeDeadWritersTemps,
  rpiPaths,
  writePlan,
  writeResearch,
} from '../../../engine/rpi/rpiState.js';
import { HeldFolder } from '../../../engine/workspace/heldFolder.js';
import { designPlanExample as plan } from '../../support/planExample.js';
import { useTempFolders, writeTree } from '../../support/tempFolder.js';
import { useEngineChildren } from '../../support/engineChild.js';
import { deadPid } from '../../support/processProbe.js';
import { poolRequestsDuring } from '../../support/busyThreadPool.js';

const nothing = { hasResearch: false, hasPlan: false, items: [], originalCount: null, allDone: false };

describe('rpi state on disk', () => {
  const tempFolder = useTempFolders();
  const stateDir = async (files: Record<string, string> = {}) => {
    const dir = path.join(await tempFolder(), '.workbench');
    await writeTree(dir, files);
    return dir;
  };

  describe('readRpiState', () => {
    it('reports nothing when there are no files', async () => {
      expect(await readRpiState(await stateDir())).toEqual(nothing);
    });

    it('reports research only', async () => {
      const dir = await stateDir({ 'rpi/research.md': '# Research\nThe CSV uses ; as separator.\n' });
      expect(rpiPaths(dir).research).toBe(path.join(dir, 'rpi', 'research.md'));
      expect(await readRpiState(dir)).toEqual({ ...nothing, hasResearch: true });
    });

    it('does not count blank research as research', async () => {
      expect(await readRpiState(await stateDir({ 'rpi/research.md': ' \n\n' }))).toEqual(nothing);
    });

    it('reports research and a plan with pending items as not done, with the original count', async () => {
      const state = await readRpiState(await stateDir({ 'rpi/research.md': 'r', 'rpi/plan.md': plan }));
      expect(state).toMatchObject({ hasResearch: true, hasPlan: true, originalCount: 3, allDone: false });
      expect(state.items.map((item) => [item.number, item.status, item.rawLine])).toEqual([
        [1, 'pending', '- [ ] 1. Parse statement — read bank.csv and normalise dates and amounts'],
        [2, 'done', '- [x] 2. Categorise — ...'],
        [3, 'failed', '- [!] 3. Write workbook — ... [Failed: write_xlsx rejected sheet name]'],
      ]);
    });

    it('says all done when no item is pending (failed items count as finished)', async () => {
      const dir = await stateDir({ 'rpi/research.md': 'r', 'rpi/plan.md': '- [x] 1. A\n- [!] 2. B [Failed: no]\n' });
      const state = await readRpiState(dir);
      expect(state).toMatchObject({ hasResearch: true, hasPlan: true, originalCount: null, allDone: true });
      expect(state.items.map((item) => item.status)).toEqual(['done', 'failed']);
    });

    it('treats a plan with zero items as all done (nothing to implement)', async () => {
      const dir = await stateDir({ 'rpi/plan.md': '# Execution Plan\n\n## Items\n' });
      expect(await readRpiState(dir)).toEqual({ ...nothing, hasPlan: true, allDone: true });
    });

    it('treats an empty plan.md as no plan (planned again), not as a plan with nothing left to do', async () => {
      for (const text of ['', ' \n\n']) {
        const dir = await stateDir({ 'rpi/research.md': 'r', 'rpi/plan.md': text });
        expect(await readRpiState(dir)).toEqual({ ...nothing, hasResearch: true });
      }
    });

    it('keeps duplicate and missing numbers in file order', async () => {
      const dir = await stateDir({ 'rpi/plan.md': '- [x] 3. C\n- [ ] 3. C again\n- [ ] 10. J\n' });
      const { items } = await readRpiState(dir);
      expect(items.map(({ index, number }) => [index, number])).toEqual([
        [0, 3],
        [1, 3],
        [2, 10],
      ]);
    });
  });

  describe('writing research and plan', () => {
    it('writes research.md and reads it back, creating rpi/', async () => {
      const dir = await stateDir();
      expect(await readResearch(dir)).toBeNull();
      await writeResearch(dir, '# Research\nbank.csv has 3 columns\n');
      expect(await readFile(rpiPaths(dir).research, 'utf8')).toBe('# Research\nbank.csv has 3 columns\n');
      expect(await readResearch(dir)).toBe('# Research\nbank.csv has 3 columns\n');
      expect(await readRpiState(dir)).toEqual({ ...nothing, hasResearch: true });
    });

    it('records the original item count in a plan the model wrote without one', async () => {
      const dir = await stateDir();
      await writePlan(dir, '# Execution Plan\n\n## Items\n- [ ] 1. One\n- [ ] 2. Two\n');
      expect(await readPlan(dir)).toBe('# Execution Plan\n<!-- original_count: 2 -->\n\n## Items\n- [ ] 1. One\n- [ ] 2. Two\n');
      expect(await readRpiState(dir)).toMatchObject({ hasPlan: true, originalCount: 2, allDone: false });
    });

    it('keeps the original count a plan already carries', async () => {
      const dir = await stateDir();
      await writePlan(dir, plan);
      expect(await readFile(rpiPaths(dir).plan, 'utf8')).toBe(plan);
    });
  });

  describe('markItem', () => {
    it('marks items done and failed in plan.md, leaving the other bytes as they were', async () => {
      const dir = await stateDir({ 'rpi/plan.md': plan.replace(/\n/g, '\r\n') });
      await markItem(dir, 0, 'done');
      const items = await markItem(dir, 1, 'failed', 'categories.json\nis missing');
      expect(await readFile(rpiPaths(dir).plan, 'utf8')).toBe(
        plan
          .replace('- [ ] 1.', '- [x] 1.')
          .replace('- [x] 2. Categorise — ...', '- [!] 2. Categorise — ... [Failed: categories.json is missing]')
          .replace(/\n/g, '\r\n'),
      );
      expect(items.map((item) => item.status)).toEqual(['done', 'failed', 'failed']);
      expect(items[1]?.failure).toBe('categories.json is missing');
    });

    it('re-fails and un-fails an item, replacing and then removing its reason', async () => {
      const dir = await stateDir({ 'rpi/plan.md': plan });
      await markItem(dir, 2, 'failed', 'second try failed too');
      expect(await readPlan(dir)).toContain('- [!] 3. Write workbook — ... [Failed: second try failed too]\n');
      await markItem(dir, 2, 'pending');
      const failedLine = '- [!] 3. Write workbook — ... [Failed: write_xlsx rejected sheet name]';
      expect(await readPlan(dir)).toBe(plan.replace(failedLine, '- [ ] 3. Write workbook — ...'));
    });

    it('reads the plan afresh, so hand edits made between items are kept', async () => {
      const dir = await stateDir({ 'rpi/plan.md': plan });
      await writeFile(rpiPaths(dir).plan, `${plan}- [ ] 4. Added by hand\n`);
      const items = await markItem(dir, 3, 'done');
      expect(items.map((item) => item.label)).toEqual(['Parse statement', 'Categorise', 'Write workbook', 'Added by hand']);
      expect(await readPlan(dir)).toBe(`${plan}- [x] 4. Added by hand\n`);
    });

    it('ticks an item by writing its one byte where it lies: the same file, one thread-pool request (its fdatasync), no temp file; a longer change replaces the file', async () => {
      const dir = await stateDir({ 'rpi/plan.md': plan });
      const file = rpiPaths(dir).plan;
      const { ino } = await stat(file);
      // Before: a temp file written, fsynced with its folder and renamed over plan.md (3 requests: a mkdir and two fsyncs), a new file.
      expect(await poolRequestsDuring(() => markItem(dir, 0, 'done'))).toBe(1);
      expect((await stat(file)).ino).toBe(ino);
      expect(await readPlan(dir)).toBe(plan.replace('- [ ] 1.', '- [x] 1.'));
      expect(await readdir(path.dirname(file))).toEqual(['plan.md']);

      await markItem(dir, 0, 'failed', 'the dates did not parse');
      expect((await stat(file)).ino).not.toBe(ino);
      expect(await readPlan(dir)).toContain('- [!] 1. Parse statement — read bank.csv and normalise dates and amounts [Failed: the dates did not parse]\n');
    });

    it('does not lose a mark when many are made at once', async () => {
      const lines = Array.from({ length: 25 }, (_, i) => `- [ ] ${i + 1}. Step ${i + 1}`);
      const dir = await stateDir({ 'rpi/plan.md': `${lines.join('\n')}\n` });
      await Promise.all(lines.map((_, index) => markItem(dir, index, 'done')));
      const state = await readRpiState(dir);
      expect(state.items.filter((item) => item.status === 'done')).toHaveLength(25);
      expect(state.allDone).toBe(true);
    });

    it('refuses an index the plan does not have, leaving the file alone', async () => {
      const dir = await stateDir({ 'rpi/plan.md': plan });
      await expect(markItem(dir, 5, 'done')).rejects.toThrow('The plan has no item at index 5: it has 3 item(s), counted from 0 in file order.');
      expect(await readPlan(dir)).toBe(plan);
    });

    it('says there is no plan when plan.md does not exist', async () => {
      const dir = await stateDir();
      await expect(markItem(dir, 0, 'done')).rejects.toThrow(`There is no plan to change: ${rpiPaths(dir).plan} does not exist.`);
    });
  });

  describe('completeItem', () => {
    it('ticks the item and appends the new items it proposed, up to twice the original count, and warns about the rest', async () => {
      const dir = await stateDir({ 'rpi/plan.md': plan });
      const { items, ...outcome } = await completeItem(dir, 0, ['- [ ] 4. A', '- [ ] 5. B', '- [ ] 6. C', '- [ ] 7. D']);
      expect(outcome).toEqual({
        appended: ['- [ ] 4. A', '- [ ] 5. B', '- [ ] 6. C'],
        dropped: ['- [ ] 7. D'],
        warning: 'Dropped 1 new plan item(s): a plan may grow to 2× its original 3 item(s), 6 in all, and it had 3.',
      });
      expect(await readPlan(dir)).toBe(`${plan.replace('- [ ] 1.', '- [x] 1.')}- [ ] 4. A\n- [ ] 5. B\n- [ ] 6. C\n`);
      expect(items).toHaveLength(6);
      expect(items[0]?.status).toBe('done');
      expect(items.slice(3).map((item) => item.status)).toEqual(['pending', 'pending', 'pending']);
    });

    it('writes the tick and the new items at once: until the new plan replaces it, the file is the plan as it was', async () => {
      const dir = await stateDir({ 'rpi/plan.md': plan });
      // Held open: a tick written in place before the items were appended (a crash between the two lost them) would show here.
      const before = await open(rpiPaths(dir).plan, 'r');
      try {
        await completeItem(dir, 0, ['- [ ] 4. Added']);
        expect(await before.readFile('utf8')).toBe(plan);
      } finally {
        await before.close();
      }
      expect(await readPlan(dir)).toBe(`${plan.replace('- [ ] 1.', '- [x] 1.')}- [ ] 4. Added\n`);
    });

    it('only ticks when every new item is dropped, in place', async () => {
      const dir = await stateDir({ 'rpi/plan.md': '<!-- original_count: 1 -->\n- [ ] 1. A\n- [ ] 2. B\n' });
      const { ino } = await stat(rpiPaths(dir).plan);
      expect(await completeItem(dir, 0, ['- [ ] 3. C'])).toMatchObject({ appended: [], dropped: ['- [ ] 3. C'] });
      expect(await readPlan(dir)).toBe('<!-- original_count: 1 -->\n- [x] 1. A\n- [ ] 2. B\n');
      expect((await stat(rpiPaths(dir).plan)).ino).toBe(ino);
    });
  });

  describe('clearRpiState', () => {
    it('removes research and plan so the next run starts from nothing', async () => {
      const dir = await stateDir({ 'rpi/research.md': 'r', 'rpi/plan.md': plan, 'conversation.jsonl': '' });
      await clearRpiState(dir);
      expect(await readRpiState(dir)).toEqual(nothing);
      expect(await readdir(dir)).toEqual(['conversation.jsonl']);
    });

    it('is fine when there is nothing to clear', async () => {
      const dir = await stateDir();
      await clearRpiState(dir);
      await clearRpiState(dir);
      expect(await readRpiState(dir)).toEqual(nothing);
    });
  });

  describe('temp files left by a writer that died', () => {
    it('are removed when the workbench takes the folder, while those of a live writer are kept', async () => {
      const dir = await stateDir({ 'rpi/plan.md': plan });
      const dead = `.plan.md.${deadPid()}.0123abcd.tmp`;
      const live = `.plan.md.${process.ppid}.89abcdef.tmp`;
      await writeTree(rpiPaths(dir).dir, { [dead]: '- [ ] 1. half a pl', [live]: 'in progress', 'notes.tmp': 'not ours' });
      const held = await HeldFolder.open(dir);
      await removeDeadWritersTemps(held).finally(() => held.close());
      expect((await readdir(rpiPaths(dir).dir)).sort()).toEqual([live, 'notes.tmp', 'plan.md']);
      expect(await readRpiState(dir)).toMatchObject({ hasPlan: true, originalCount: 3 });
    });

    it('are looked for once, at the open, not before every read and write of a run (each a listing of rpi/)', async () => {
      const dir = await stateDir({ 'rpi/plan.md': plan, 'rpi/research.md': 'notes' });
      const dead = `.plan.md.${deadPid()}.0123abcd.tmp`;
      await writeFile(path.join(rpiPaths(dir).dir, dead), 'torn');
      await readRpiState(dir);
      await markItem(dir, 0, 'done');
      await writeResearch(dir, 'more notes');
      expect((await readdir(rpiPaths(dir).dir)).sort()).toEqual([dead, 'plan.md', 'research.md']);
    });
  });
});

/** Distinct content for each round, several MB, and of a different length each time so a mix cannot pass. */
const roundContent = (round: number): string => `round ${round}\n`.repeat(400_000 + round * 10_000);

const roundOf = (content: string): number => Number(/^round (\d+)\n/.exec(content)?.[1] ?? -1);

const lastRound = (stdout: string, marker: 'writing' | 'wrote'): number | null => {
  const rounds = [...stdout.matchAll(new RegExp(`^${marker} (\\d+)$`, 'gm'))].map((match) => Number(match[1]));
  return rounds.length === 0 ? null : Math.max(...rounds);
};

/** Resolves when the n-th temp file appears in `dir`, on the file system's own event rather than a poll. */
function nthTempFile(dir: string, n: number): { appeared: Promise<void>; stop: () => void } {
  const seen = new Set<string>();
  let watcher: FSWatcher | undefined;
  const appeared = new Promise<void>((resolve) => {
    watcher = watch(dir, (_event, name) => {
      if (name?.endsWith('.tmp')) seen.add(name);
      if (seen.size >= n) resolve();
    });
  });
  return { appeared, stop: () => watcher?.close() };
}

/** When to kill the writer: on its n-th "writing"/"wrote" line, or when its n-th temp file appears (mid-write). */
type KillPoint = { output: 'writing' | 'wrote'; nth: number } | { tempFile: number };

describe('a writer killed in the middle of writing research.md', () => {
  const tempFolder = useTempFolders();
  const startChild = useEngineChildren(tempFolder);
  const rpiStateUrl = pathToFileURL(path.resolve('engine/rpi/rpiState.ts')).href;
  const childSource = `
const { writeResearch } = await import(process.argv[2] ?? '');
const stateDir = process.argv[3] ?? '';
const roundContent = ${roundContent.toString()};
for (let round = Number(process.argv[4]); ; round += 1) {
  const content = roundContent(round);
  process.stdout.write(\`writing \${round}\\n\`);
  await writeResearch(stateDir, content);
  process.stdout.write(\`wrote \${round}\\n\`);
}
`;
  const killPoints: KillPoint[] = [
    { tempFile: 1 },
    { output: 'writing', nth: 1 },
    { tempFile: 2 },
    { output: 'wrote', nth: 1 },
    { output: 'writing', nth: 3 },
    { tempFile: 3 },
    { output: 'wrote', nth: 2 },
    { tempFile: 1 },
  ];

  it('leaves exactly the old or the new content, and no temp file once the folder is opened again', { timeout: 60_000 }, async () => {
    const stateDir = path.join(await tempFolder(), '.workbench');
    const rpiDir = rpiPaths(stateDir).dir;
    await writeResearch(stateDir, roundContent(0));
    let onDisk = 0;
    let first = 1;
    let tempFilesLeft = 0;

    for (const point of killPoints) {
      const tempFile = nthTempFile(rpiDir, 'tempFile' in point ? point.tempFile : Infinity);
      const child = await startChild(childSource, [rpiStateUrl, stateDir, String(first)]);
      await ('tempFile' in point ? tempFile.appeared : child.waitForOutput(`${point.output} ${first + point.nth - 1}\n`));
      child.kill('SIGKILL');
      tempFile.stop();
      const { signal, stdout } = await child.exited;
      expect(signal).toBe('SIGKILL');

      const content = await readFile(rpiPaths(stateDir).research, 'utf8');
      const round = roundOf(content);
      const started = lastRound(stdout, 'writing') ?? first;
      expect([lastRound(stdout, 'wrote') ?? onDisk, started]).toContain(round);
      expect(content === roundContent(round)).toBe(true);

      tempFilesLeft += (await readdir(rpiDir)).filter((name) => name.endsWith('.tmp')).length;
      const held = await HeldFolder.open(stateDir);
      await removeDeadWritersTemps(held).finally(() => held.close());
      expect(await readRpiState(stateDir)).toMatchObject({ hasResearch: true, hasPlan: false });
      expect(await readdir(rpiDir)).toEqual(['research.md']);
      onDisk = round;
      first = started + 1;
    }
    expect(tempFilesLeft, 'no kill landed mid-write, so the clean-up was not exercised').toBeGreaterThan(0);
  });
});
