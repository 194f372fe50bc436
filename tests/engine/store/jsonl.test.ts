import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { findJsonl, readJsonl } from '../../../engine/store/jsonl.js';
import { useTempFolders } from '../../support/tempFolder.js';

const entrySchema = z.object({ n: z.number() });

describe('readJsonl', () => {
  const tempFolder = useTempFolders();
  const read = async (content: string | Buffer) => {
    const file = path.join(await tempFolder(), 'log.jsonl');
    await writeFile(file, content);
    return readJsonl(file, entrySchema, 'log.jsonl');
  };

  it('reads every line of an intact file', async () => {
    const content = '{"n":1}\n{"n":2}\n';
    expect(await read(content)).toEqual({
      records: [{ n: 1 }, { n: 2 }],
      offsets: [0, 8],
      warnings: [],
      intactBytes: Buffer.byteLength(content),
      tornTail: false,
    });
  });

  it('returns nothing, without warnings, for a missing file', async () => {
    const file = path.join(await tempFolder(), 'absent.jsonl');
    expect(await readJsonl(file, entrySchema, 'absent.jsonl')).toEqual({ records: [], offsets: [], warnings: [], intactBytes: 0, tornTail: false });
  });

  it('reports a torn last line and where the intact part ends', async () => {
    const intact = '{"n":1}\n{"n":2}\n';
    const result = await read(`${intact}{"n":`);
    expect(result).toEqual({
      records: [{ n: 1 }, { n: 2 }],
      offsets: [0, 8],
      warnings: ['log.jsonl: line 3 is an incomplete write and will be cut off (not valid JSON)'],
      intactBytes: Buffer.byteLength(intact),
      tornTail: true,
    });
  });

  it('measures the intact part in bytes, not characters', async () => {
    const intact = '{"n":1,"note":"café ☕"}\n';
    const result = await read(`${intact}{"n":2,"note":"caf`);
    expect(result.intactBytes).toBe(Buffer.byteLength(intact));
    expect(result.intactBytes).toBeGreaterThan(intact.length);
  });

  it('keeps a complete last line that only lacks its newline', async () => {
    const content = '{"n":1}\n{"n":2}';
    expect(await read(content)).toEqual({
      records: [{ n: 1 }, { n: 2 }],
      offsets: [0, 8],
      warnings: [],
      intactBytes: Buffer.byteLength(content),
      tornTail: false,
    });
  });

  it('skips a corrupt line in the middle with a warning and keeps the later lines', async () => {
    const result = await read('{"n":1}\n{"n":\n{"n":"three"}\n{"n":4}\n');
    expect(result.records).toEqual([{ n: 1 }, { n: 4 }]);
    expect(result.tornTail).toBe(false);
    expect(result.warnings).toHaveLength(2);
    expect(result.warnings[0]).toBe('log.jsonl: skipped corrupt line 2 (not valid JSON)');
    expect(result.warnings[1]).toMatch(/^log\.jsonl: skipped corrupt line 3 \(.+\)$/);
  });

  it('ignores blank lines but counts them in line numbers', async () => {
    const result = await read('\n{"n":1}\n   \n\n{broken}\n{"n":2}\n\n');
    expect(result.records).toEqual([{ n: 1 }, { n: 2 }]);
    expect(result.warnings).toEqual(['log.jsonl: skipped corrupt line 5 (not valid JSON)']);
    expect(result.tornTail).toBe(false);
  });

  it('reads CRLF line endings', async () => {
    const result = await read('{"n":1}\r\n{"n":2}\r\n');
    expect(result.records).toEqual([{ n: 1 }, { n: 2 }]);
    expect(result.warnings).toEqual([]);
  });

  it('reads an empty file as empty', async () => {
    expect(await read('')).toEqual({ records: [], offsets: [], warnings: [], intactBytes: 0, tornTail: false });
  });

  it('gives the byte offset where each record starts, past skipped lines and multi-byte characters', async () => {
    const lines = ['{"n":1,"note":"café ☕"}', '{broken}', '', '{"n":2}\r', '  {"n":3}'];
    const content = `${lines.join('\n')}\n`;
    const result = await read(content);
    expect(result.records).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    const buffer = Buffer.from(content);
    expect(result.offsets.map((offset) => buffer.subarray(offset).toString('utf8').split('\n')[0])).toEqual([lines[0], lines[3], lines[4]]);
    expect(result.offsets[1]).toBe(Buffer.byteLength(`${lines[0]}\n${lines[1]}\n\n`));
  });
});

describe('findJsonl', () => {
  const tempFolder = useTempFolders();
  const isTwo = (entry: { n: number }) => entry.n === 2;

  it('returns the first record that matches, passing over lines that do not parse', async () => {
    const file = path.join(await tempFolder(), 'log.jsonl');
    await writeFile(file, '{"n":1}\n{"n":2,\n{"n":"2"}\r\n{"n":2,"first":true}\r\n{"n":2}\n');
    expect(await findJsonl(file, z.looseObject({ n: z.number() }), isTwo)).toEqual({ n: 2, first: true });
  });

  it('reads a file larger than one stream chunk', async () => {
    const file = path.join(await tempFolder(), 'log.jsonl');
    const filler = Array.from({ length: 2_000 }, (_, n) => JSON.stringify({ n: n + 10, pad: 'x'.repeat(500) }));
    await writeFile(file, `${filler.join('\n')}\n{"n":2}\n`);
    expect(await findJsonl(file, entrySchema, isTwo)).toEqual({ n: 2 });
    expect(await findJsonl(file, entrySchema, (entry) => entry.n === 1_500)).toEqual({ n: 1_500 });
  });

  it('returns null when nothing matches or there is no file', async () => {
    const dir = await tempFolder();
    await writeFile(path.join(dir, 'log.jsonl'), '{"n":1}\n{"n":');
    expect(await findJsonl(path.join(dir, 'log.jsonl'), entrySchema, isTwo)).toBeNull();
    expect(await findJsonl(path.join(dir, 'absent.jsonl'), entrySchema, isTwo)).toBeNull();
  });
});
