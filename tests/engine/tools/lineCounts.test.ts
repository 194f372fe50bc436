import { lstat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getFileMap } from '../../../engine/tools/getFileMap.js';
import { SmallFileReader } from '../../../engine/workspace/smallFileReader.js';
import { useTempFolders, writeTree } from '../../support/tempFolder.js';
import { runTool, toolContextFor } from '../../support/toolContext.js';

/** Sets the clock the counts are judged by (Date only, stopped there). */
function clockAt(ms: number): void {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(ms);
}

/** Moves that clock ahead, as if the next map came that much later. */
const clockAhead = (ms: number) => clockAt(Date.now() + ms);

describe('get_file_map line counts, map after map of one folder', () => {
  const tempFolder = useTempFolders();
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  async function folderOf(count: number) {
    const root = await tempFolder();
    await writeTree(root, Object.fromEntries(Array.from({ length: count }, (_, index) => [`items/item-${index}.txt`, `${index}\n`])));
    const context = await toolContextFor(root);
    // A file is read through the workspace, or (small, on Linux) through a SmallFileReader: files read is both.
    const spies = [vi.spyOn(context.workspace, 'openForRead'), vi.spyOn(SmallFileReader.prototype, 'read')];
    const opened = {
      count: () => spies.reduce((sum, spy) => sum + spy.mock.calls.length, 0),
      mockClear: () => spies.forEach((spy) => spy.mockClear()),
    };
    return { root, context, opened };
  }

  it('opens only the files written since the last map, not every file shown again (the map each plan item starts from)', async () => {
    const { root, context, opened } = await folderOf(40);
    clockAhead(10_000);
    await runTool(getFileMap, {}, context);
    expect(opened.count()).toBe(40);

    for (const item of [40, 41, 42]) {
      opened.mockClear();
      await writeFile(path.join(root, 'items', `item-${item}.txt`), `${item}\n`);
      clockAhead(10_000);
      const map = await runTool(getFileMap, {}, context);
      expect(opened.count()).toBe(1);
      expect(map).toContain(`item-${item}.txt  3 B, 1 line`);
    }
  });

  it('counts a file again when it changed, even to the same size, and one changed just now every time', async () => {
    const { root, context, opened } = await folderOf(3);
    await writeFile(path.join(root, 'items', 'same.txt'), 'abc\n');
    clockAhead(10_000);
    expect(await runTool(getFileMap, {}, context)).toContain('same.txt  4 B, 1 line');

    opened.mockClear();
    await writeFile(path.join(root, 'items', 'same.txt'), 'a\nb\n');
    // Counted a moment after the write: another write in the same tick of the clock would keep its times, so it is not remembered.
    const { ctimeMs } = await lstat(path.join(root, 'items', 'same.txt'));
    clockAt(ctimeMs + 5);
    expect(await runTool(getFileMap, {}, context)).toContain('same.txt  4 B, 2 lines');
    expect(await runTool(getFileMap, {}, context)).toContain('same.txt  4 B, 2 lines');
    expect(opened.count()).toBe(2);
  });
});
