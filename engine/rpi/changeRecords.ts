import path from 'node:path';
import type { ToolLog, ToolLogRecord } from '../store/toolLog.js';
import { toolCatalog } from '../tools/toolCatalog.js';

/** More than this many paths and the list ends with a count of the rest. */
const maxListed = 100;

type PathChange = 'written' | 'edited' | 'deleted' | { movedTo: string } | { movedFrom: string };

/** Tools whose records say which path they changed, and how. */
const pathChanges: Record<string, (args: Record<string, unknown>) => [string, PathChange][]> = {
  write_file: (args) => pathOf(args['path'], 'written'),
  write_xlsx: (args) => pathOf(args['path'], 'written'),
  edit_file: (args) => pathOf(args['path'], 'edited'),
  delete_file: (args) => pathOf(args['path'], 'deleted'),
  move_file: ({ from, to }) => (typeof from === 'string' && typeof to === 'string' ? [[normalised(from), { movedTo: normalised(to) }], [normalised(to), { movedFrom: normalised(from) }]] : []),
};

/**
 * The changes the run's own tool calls made, taken from their tool-log records as they are appended: what
 * an Implement item is told changed since its phase began, without scanning the folder again. A call whose
 * record names no path (run_command, an MCP tool) is counted, as it may have changed any file.
 */
export class ChangeRecords {
  private readonly records: ToolLogRecord[] = [];

  /** The tool log as the run's loops append to it, every successful change noted on the way. */
  recording(log: Pick<ToolLog, 'append'>): Pick<ToolLog, 'append'> {
    return {
      append: async (record) => {
        const stored = await log.append(record);
        if (stored.ok && (stored.tool in pathChanges || toolCatalog.get(stored.tool)?.mutates !== false)) this.records.push(stored);
        return stored;
      },
    };
  }

  /** Where the records stand now, for `since`. */
  mark(): number {
    return this.records.length;
  }

  /** One line per path changed after `mark` (its latest change), then the calls that may have changed others; empty when none. */
  since(mark: number): string[] {
    const latest = new Map<string, PathChange>();
    const others = new Map<string, number>();
    for (const record of this.records.slice(mark)) {
      const changes = pathChanges[record.tool]?.(argsOf(record));
      if (!changes) {
        others.set(record.tool, (others.get(record.tool) ?? 0) + 1);
        continue;
      }
      for (const [file, change] of changes) {
        latest.delete(file);
        latest.set(file, change);
      }
    }
    const lines = [...latest].slice(0, maxListed).map(([file, change]) => `- ${file} (${describe(change)})`);
    if (latest.size > maxListed) lines.push(`- … and ${latest.size - maxListed} more`);
    if (others.size > 0) {
      const calls = [...others].map(([tool, count]) => `${count} ${tool} ${count === 1 ? 'call' : 'calls'}`).join(', ');
      lines.push(`- and ${calls}, which may have changed other files: look before you rely on the file map`);
    }
    return lines;
  }
}

function describe(change: PathChange): string {
  if (typeof change === 'string') return change;
  return 'movedTo' in change ? `moved to ${change.movedTo}` : `moved here from ${change.movedFrom}`;
}

function argsOf(record: ToolLogRecord): Record<string, unknown> {
  return typeof record.args === 'object' && record.args !== null ? (record.args as Record<string, unknown>) : {};
}

function pathOf(value: unknown, change: PathChange): [string, PathChange][] {
  return typeof value === 'string' ? [[normalised(value), change]] : [];
}

function normalised(file: string): string {
  return path.posix.normalize(file.replace(/\\/g, '/')).replace(/^\.\//, '');
}
