import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openToolLog, toolLogFile, type ToolLogRecord } from '../../../engine/store/toolLog.js';
import { useTempFolders } from '../../support/tempFolder.js';

const call = (tool: string, result = `${tool} result`): Omit<ToolLogRecord, 'id'> => ({
  runId: 'run-1',
  phase: 'research',
  tool,
  args: { path: 'bank.csv', options: { limit: 10 } },
  result,
  ok: true,
  durationMs: 12,
  ts: 1_700_000_000_000,
});

describe('tool log', () => {
  const tempFolder = useTempFolders();
  const stateDir = async () => path.join(await tempFolder(), '.workbench');

  it('stores each call as one line of .workbench/tool-log.jsonl with ids counting up from 1', async () => {
    const dir = await stateDir();
    const log = await openToolLog(dir);
    expect(log.warnings).toEqual([]);
    expect(await log.append(call('list_files'))).toEqual({ id: 1, ...call('list_files') });
    expect(await log.append(call('read_file'))).toEqual({ id: 2, ...call('read_file') });
    const lines = (await readFile(toolLogFile(dir), 'utf8')).split('\n');
    expect(lines).toHaveLength(3);
    expect(JSON.parse(lines[1] ?? '')).toEqual({ id: 2, ...call('read_file') });
  });

  it('keeps ids increasing across reopening', async () => {
    const dir = await stateDir();
    const first = await openToolLog(dir);
    await first.append(call('a'));
    await first.append(call('b'));
    const second = await openToolLog(dir);
    expect((await second.append(call('c'))).id).toBe(3);
    expect((await (await openToolLog(dir)).append(call('d'))).id).toBe(4);
  });

  it('gives ids in call order to calls logged at once', async () => {
    const log = await openToolLog(await stateDir());
    const stored = await Promise.all(['a', 'b', 'c', 'd'].map((tool) => log.append(call(tool))));
    expect(stored.map((record) => [record.id, record.tool])).toEqual([
      [1, 'a'],
      [2, 'b'],
      [3, 'c'],
      [4, 'd'],
    ]);
  });

  it('recalls the full result of a call by its id, also after reopening', async () => {
    const dir = await stateDir();
    const log = await openToolLog(dir);
    const long = `header\n${'row;1;2;3\n'.repeat(200_000)}`;
    await log.append(call('list_files'));
    const stored = await log.append({ ...call('read_file', long), phase: 'implement', ok: false, args: ['any', 'json', 1] });
    await log.append(call('search_files'));
    expect(await log.recall(stored.id)).toEqual(stored);
    expect((await (await openToolLog(dir)).recall(2))?.result).toBe(long);
  });

  it('recalls nothing for an id it never gave', async () => {
    const dir = await stateDir();
    const log = await openToolLog(dir);
    expect(await log.recall(1)).toBeNull();
    await log.append(call('a'));
    expect(await log.recall(2)).toBeNull();
    expect(await log.recall(0)).toBeNull();
  });

  it('skips corrupt lines with warnings and still counts on from the highest id', async () => {
    const dir = await stateDir();
    await (await openToolLog(dir)).append(call('a'));
    const valid = (id: number) => JSON.stringify({ id, ...call('x') });
    await writeFile(toolLogFile(dir), `${valid(1)}\n{"id":50,\n${valid(7)}\n{"id":99,"tool":"no phase"}\n${valid(3)}\n`);
    const log = await openToolLog(dir);
    expect(log.warnings).toHaveLength(2);
    expect(log.warnings[0]).toBe('tool-log.jsonl: skipped corrupt line 2 (not valid JSON)');
    expect(log.warnings[1]).toMatch(/^tool-log\.jsonl: skipped corrupt line 4 /);
    expect((await log.append(call('b'))).id).toBe(8);
    expect((await log.recall(7))?.tool).toBe('x');
  });

  it('cuts a torn last line before the next append', async () => {
    const dir = await stateDir();
    await (await openToolLog(dir)).append(call('a'));
    const intact = await readFile(toolLogFile(dir), 'utf8');
    await writeFile(toolLogFile(dir), `${intact}{"id":2,"runId":"run-1","pha`);
    const log = await openToolLog(dir);
    expect(log.warnings).toEqual(['tool-log.jsonl: line 2 is an incomplete write and will be cut off (not valid JSON)']);
    const stored = await log.append(call('b'));
    expect(stored.id).toBe(2);
    expect(await readFile(toolLogFile(dir), 'utf8')).toBe(`${intact}${JSON.stringify(stored)}\n`);
  });

  it('refuses a record that does not fit the schema, without using up an id', async () => {
    const log = await openToolLog(await stateDir());
    await expect(log.append({ ...call('a'), phase: 'deploy' } as unknown as Omit<ToolLogRecord, 'id'>)).rejects.toThrow();
    expect((await log.append(call('a'))).id).toBe(1);
  });
});
