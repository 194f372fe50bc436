import type * as NodeFs from 'node:fs';
import type * as NodeFsPromises from 'node:fs/promises';
import { readdirSync, readlinkSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { AppendLog } from '../../../engine/store/appendLog.js';
import { PendingWrites } from '../../../engine/store/pendingWrites.js';
import { openToolLog, toolLogFile, type ToolLogRecord } from '../../../engine/store/toolLog.js';
import { useFakeLlm } from '../../support/fakeLlm/useFakeLlm.js';
import { folderAfterOneRun } from '../../support/folderAfterOneRun.js';
import { useOpenedWorkbenches } from '../../support/openedWorkbenches.js';
import { call as turnCalling, planText, say } from '../../support/rpiScript.js';
import { useTempFolders } from '../../support/tempFolder.js';
import { conversationDir } from '../../support/conversationDir.js';

/** Every path node:fs/promises `open` or node:fs `openSync` was called with, in order; `recorded` wraps an open to note it. */
const { opened, recorded } = vi.hoisted(() => {
  const paths: string[] = [];
  const wrap = <Open extends (...args: never[]) => unknown>(open: Open): Open =>
    ((...args: Parameters<Open>) => {
      paths.push(String(args[0]));
      return open(...args);
    }) as Open;
  return { opened: paths, recorded: wrap };
});

vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof NodeFs>();
  const openSync = recorded(fs.openSync);
  return { ...fs, openSync, default: { ...fs, openSync } };
});

vi.mock('node:fs/promises', async (importOriginal) => {
  const fs = await importOriginal<typeof NodeFsPromises>();
  const open = recorded(fs.open);
  return { ...fs, open, default: { ...fs, open } };
});

const opensOf = (file: string) => opened.filter((each) => each === file).length;
/** How many of this process's descriptors are open on `file` (Linux; 0 elsewhere). */
const descriptorsOn = (file: string) =>
  process.platform !== 'linux' ? 0 : readdirSync('/proc/self/fd').filter((fd) => readlinkSafe(`/proc/self/fd/${fd}`) === file).length;
const readlinkSafe = (link: string) => {
  try {
    return readlinkSync(link);
  } catch {
    return null;
  }
};
const linesOf = async (file: string) => (await readFile(file, 'utf8')).split('\n').filter(Boolean);

const call = (tool: string): Omit<ToolLogRecord, 'id'> => ({ runId: 'run-1', phase: 'implement', tool, args: { path: 'a.ts' }, result: `${tool} done`, ok: true, durationMs: 3, ts: 1 });

describe('the tool log, appended to on every tool call', () => {
  const tempFolder = useTempFolders();

  it('opens its file once for a run of appends, and every record is on disk when its append returns', async () => {
    const stateDir = path.join(await tempFolder(), '.workbench');
    const file = toolLogFile(stateDir);
    const log = await openToolLog(stateDir);
    const before = opensOf(file);

    for (let index = 1; index <= 20; index += 1) {
      await log.append(call(`tool_${index}`));
      // Nothing waits in memory: a kill -9 after this append returned keeps every record so far.
      expect(await linesOf(file)).toHaveLength(index);
    }

    // Today's main opened the file once per append (20); the reads above are readFile, not `open`.
    expect(opensOf(file) - before).toBe(1);
    await log.close();
    expect((await log.append(call('after_close'))).id).toBe(21);
    expect(opensOf(file) - before).toBe(2);
    expect(JSON.parse((await linesOf(file)).at(-1) ?? '')).toMatchObject({ id: 21, tool: 'after_close' });
    await log.close();
  });
});

describe('the journal of temp files, appended to twice for every file a tool writes', () => {
  const tempFolder = useTempFolders();

  it('opens its file once for many writes, each record on disk when its append returns', async () => {
    const stateDir = path.join(await tempFolder(), '.workbench');
    const file = path.join(stateDir, 'pending-writes.jsonl');
    const journal = new PendingWrites(stateDir);
    const before = opensOf(file);
    for (let index = 1; index <= 10; index += 1) {
      await journal.begin(`src/.a.ts.${index}.tmp`);
      await journal.end(`src/.a.ts.${index}.tmp`);
      expect(await linesOf(file)).toHaveLength(2 * index);
    }
    // Once to learn how the file ends, at the first append, and once to append; today's main opened it
    // once per record (20) besides, and closed it after each.
    expect(opensOf(file) - before).toBe(1 + 1);
    expect(descriptorsOn(file)).toBe(process.platform === 'linux' ? 1 : 0);
    await journal.close();
    expect(descriptorsOn(file)).toBe(0);
    // An append still on its way when the workbench closed (an undo's last record, say) lands, and holds nothing open.
    await journal.begin('src/.b.ts.1.tmp');
    expect(opensOf(file) - before).toBe(1 + 2);
    expect(descriptorsOn(file)).toBe(0);
    expect(await linesOf(file)).toHaveLength(21);
  });
});

describe('a run’s logs, appended to on every model call and tool call', () => {
  const tempFolder = useTempFolders();
  const llm = useFakeLlm();
  const open = useOpenedWorkbenches();

  it('open the usage log and the tool log once each for the whole run, and hold every line when it finishes', async () => {
    const reads = 6;
    const { root } = await folderAfterOneRun({
      root: await tempFolder(),
      llm: llm(),
      open,
      files: Object.fromEntries(Array.from({ length: reads }, (_, index) => [`file${index}.txt`, `${index}\n`])),
      turns: [
        ...Array.from({ length: reads }, (_, index) => turnCalling('read_file', { path: `file${index}.txt` })),
        say('Six files.'),
        say(planText('Nothing')),
        say('Nothing to do.'),
        say('Read six files.'),
      ],
      request: 'Read the files',
    });
    const stateDir = path.join(root, '.workbench');
    const requests = llm().chatRequests().length;

    expect(await linesOf(path.join(conversationDir(root), 'rpi', 'usage.jsonl'))).toHaveLength(requests);
    expect(await linesOf(toolLogFile(stateDir))).toHaveLength(reads);
    // Today's main opened each once per line (10 and 6 times), besides its reads; here once each. The reads:
    // usage.jsonl when the run starts, tool-log.jsonl when the folder opens and for earlier answers to ask_user.
    const opensEndingIn = (name: string) => opened.filter((file) => file.endsWith(`${path.sep}${name}`)).length;
    expect(opensEndingIn(path.join('rpi', 'usage.jsonl'))).toBe(1 + 1);
    expect(opensEndingIn(path.join('.workbench', 'tool-log.jsonl'))).toBe(2 + 1);
  });
});

describe('AppendLog kept open', () => {
  const tempFolder = useTempFolders();
  const schema = z.object({ n: z.number() });

  it('appends after a truncate at the new end, through the handle it kept', async () => {
    const file = path.join(await tempFolder(), 'log.jsonl');
    const log = new AppendLog({ file, schema, label: 'log.jsonl', keepOpen: true });
    for (const n of [1, 2, 3]) await log.append({ n });

    expect(await log.truncateAt((record) => record.n === 2)).toBe(true);
    await log.append({ n: 4 });

    expect(await linesOf(file)).toEqual(['{"n":1}', '{"n":4}']);
    await log.close();
  });
});
