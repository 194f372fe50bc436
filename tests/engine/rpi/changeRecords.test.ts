import { describe, expect, it } from 'vitest';
import type { ToolLog, ToolLogRecord } from '../../../engine/store/toolLog.js';
import { ChangeRecords } from '../../../engine/rpi/changeRecords.js';

/** A tool log that keeps what it is given, numbering it. */
function memoryLog(): Pick<ToolLog, 'append'> & { records: ToolLogRecord[] } {
  const records: ToolLogRecord[] = [];
  return {
    records,
    append: async (record) => {
      const stored = { ...record, id: records.length + 1 };
      records.push(stored);
      return stored;
    },
  };
}

const record = (tool: string, args: Record<string, unknown>, ok = true): Omit<ToolLogRecord, 'id'> => ({ runId: 'r', phase: 'implement', tool, args, result: 'x', ok, durationMs: 1, ts: 1 });

describe('ChangeRecords', () => {
  it('lists the files changed after a mark, each by its latest change, from the records as they are appended', async () => {
    const changes = new ChangeRecords();
    const inner = memoryLog();
    const log = changes.recording(inner);
    await log.append(record('write_file', { path: 'before.txt' }));
    const mark = changes.mark();
    await log.append(record('write_file', { path: './src/new.ts' }));
    await log.append(record('read_file', { path: 'src/a.ts' }));
    await log.append(record('edit_file', { path: 'src/a.ts' }));
    await log.append(record('edit_file', { path: 'src/denied.ts' }, false));
    await log.append(record('move_file', { from: 'old.md', to: 'docs/new.md' }));
    await log.append(record('delete_file', { path: 'src/new.ts' }));
    await log.append(record('write_xlsx', { path: 'out/report.xlsx', sheets: [] }));
    await log.append(record('run_command', { command: 'npm test' }));
    await log.append(record('run_command', { command: 'npm run build' }));
    await log.append(record('mcp__db__migrate', {}));

    expect(inner.records).toHaveLength(11);
    expect(changes.since(mark)).toEqual([
      '- src/a.ts (edited)',
      '- old.md (moved to docs/new.md)',
      '- docs/new.md (moved here from old.md)',
      '- src/new.ts (deleted)',
      '- out/report.xlsx (written)',
      '- and 2 run_command calls, 1 mcp__db__migrate call, which may have changed other files: look before you rely on the file map',
    ]);
    expect(changes.since(changes.mark())).toEqual([]);
  });
});
