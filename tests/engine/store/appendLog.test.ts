import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AppendLog } from '../../../engine/store/appendLog.js';
import { useTempFolders } from '../../support/tempFolder.js';

const entrySchema = z.object({ n: z.number(), note: z.string().optional() });

describe('AppendLog', () => {
  const tempFolder = useTempFolders();
  const openLog = async () => {
    const file = path.join(await tempFolder(), 'state', 'log.jsonl');
    return { file, log: new AppendLog({ file, schema: entrySchema, label: 'log.jsonl' }) };
  };
  const logWith = async (content: string) => {
    const file = path.join(await tempFolder(), 'log.jsonl');
    await writeFile(file, content);
    return { file, log: new AppendLog({ file, schema: entrySchema, label: 'log.jsonl' }) };
  };

  it('creates the file and its folder, writing one JSON line per record', async () => {
    const { file, log } = await openLog();
    await log.append({ n: 1 });
    await log.append({ n: 2, note: 'line\nbreak' });
    expect(await readFile(file, 'utf8')).toBe('{"n":1}\n{"n":2,"note":"line\\nbreak"}\n');
    expect((await log.load()).records).toEqual([{ n: 1 }, { n: 2, note: 'line\nbreak' }]);
  });

  it('cuts a torn last line off before the next append, after reporting it on load', async () => {
    const { file, log } = await logWith('{"n":1}\n{"n":2}\n{"n":3,"no');
    const loaded = await log.load();
    expect(loaded.warnings).toEqual(['log.jsonl: line 3 is an incomplete write and will be cut off (not valid JSON)']);
    await log.append({ n: 4 });
    expect(await readFile(file, 'utf8')).toBe('{"n":1}\n{"n":2}\n{"n":4}\n');
  });

  it('cuts a torn last line even when appending without loading first', async () => {
    const { file, log } = await logWith('{"n":1}\n{"n":');
    await log.append({ n: 2 });
    await log.append({ n: 3 });
    expect(await readFile(file, 'utf8')).toBe('{"n":1}\n{"n":2}\n{"n":3}\n');
  });

  it('ends a complete last line that lacks its newline before appending', async () => {
    const { file, log } = await logWith('{"n":1}');
    await log.append({ n: 2 });
    expect(await readFile(file, 'utf8')).toBe('{"n":1}\n{"n":2}\n');
  });

  it('keeps a corrupt line in the middle as it is', async () => {
    const { file, log } = await logWith('{"n":1}\nnot json\n{"n":2}\n');
    await log.load();
    await log.append({ n: 3 });
    expect(await readFile(file, 'utf8')).toBe('{"n":1}\nnot json\n{"n":2}\n{"n":3}\n');
  });

  it('writes records appended at once whole and in call order', async () => {
    const { file, log } = await openLog();
    const big = 'y'.repeat(300_000);
    await Promise.all(Array.from({ length: 40 }, (_, n) => log.append({ n, note: n % 5 === 0 ? big : 'small' })));
    const lines = (await readFile(file, 'utf8')).split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.map((line) => (JSON.parse(line) as { n: number }).n)).toEqual(Array.from({ length: 40 }, (_, n) => n));
  });

  describe('truncateAt', () => {
    it('removes the first matching record and everything after it, keeping every byte before it', async () => {
      const before = '{"n":1}\r\n{ broken\n\n{"n":2, "note": "spaced"}\n';
      const { file, log } = await logWith(`${before}{"n":3}\n{"n":4}\n{"n":3}\n{"n":`);
      expect(await log.truncateAt((entry) => entry.n === 3)).toBe(true);
      expect(await readFile(file, 'utf8')).toBe(before);
      await log.append({ n: 5 });
      expect(await readFile(file, 'utf8')).toBe(`${before}{"n":5}\n`);
    });

    it('leaves the file alone and says so when no record matches', async () => {
      const { file, log } = await logWith('{"n":1}\n');
      expect(await log.truncateAt((entry) => entry.n === 9)).toBe(false);
      expect(await readFile(file, 'utf8')).toBe('{"n":1}\n');
    });

    it('waits for appends made before it', async () => {
      const { file, log } = await openLog();
      void log.append({ n: 1 });
      void log.append({ n: 2 });
      expect(await log.truncateAt((entry) => entry.n === 2)).toBe(true);
      expect(await readFile(file, 'utf8')).toBe('{"n":1}\n');
    });
  });

  it('finds a record appended just before, once that append has landed', async () => {
    const { log } = await openLog();
    void log.append({ n: 1, note: 'one' });
    expect(await log.find((entry) => entry.n === 1)).toEqual({ n: 1, note: 'one' });
    expect(await log.find((entry) => entry.n === 2)).toBeNull();
  });
});
