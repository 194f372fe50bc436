import { appendFile, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useFakeLlm } from '../../support/fakeLlm/useFakeLlm.js';
import { useOpenedWorkbenches } from '../../support/openedWorkbenches.js';
import { call, fakeModelOptions, planText, recordEvents, say } from '../../support/rpiScript.js';
import { startRun } from '../../support/startRun.js';
import { useTempFolders, writeTree } from '../../support/tempFolder.js';
import { conversationDir } from '../../support/conversationDir.js';

describe('a torn last line left by a crash', () => {
  const tempFolder = useTempFolders('rpi-torn-');
  const llm = useFakeLlm();
  const open = useOpenedWorkbenches();

  const oneRun = () => llm().enqueue(call('read_file', { path: 'a.txt' }), say('research'), say(planText('Only')), say('done'), say('summary'));

  it('is cut off before the next append and reported once per file, naming the file and the bytes cut', async () => {
    const root = await tempFolder();
    await writeTree(root, { 'a.txt': 'alpha\n' });
    const first = await open(root, fakeModelOptions(llm()));
    oneRun();
    await (await startRun(first, 'Read a.txt')).finished;
    await first.close();
    const state = path.join(root, '.workbench');
    // What a process killed in the middle of its write leaves: the start of a record, no newline.
    const tornTool = '{"id":99,"runId":"r","pha';
    const tornMessage = '{"id":"m9","role":"us';
    await appendFile(path.join(state, 'tool-log.jsonl'), tornTool);
    await appendFile(path.join(conversationDir(root), 'conversation.jsonl'), tornMessage);

    const second = await open(root, fakeModelOptions(llm()));
    const events = recordEvents(second);
    oneRun();
    expect((await (await startRun(second, 'Read it again')).finished).status).toBe('done');

    const warnings = events.flatMap((event) => (event.type === 'warning' ? [event.message] : []));
    expect(warnings.sort()).toEqual([
      `conversation.jsonl: cut off an incomplete last line of ${Buffer.byteLength(tornMessage)} bytes, left by a write that did not finish (the process stopped mid-write); every complete record is kept.`,
      `tool-log.jsonl: cut off an incomplete last line of ${Buffer.byteLength(tornTool)} bytes, left by a write that did not finish (the process stopped mid-write); every complete record is kept.`,
    ]);
    for (const file of ['tool-log.jsonl', 'conversation.jsonl']) {
      const lines = (await readFile(path.join(file === 'tool-log.jsonl' ? state : conversationDir(root), file), 'utf8')).trim().split('\n');
      expect(lines.every((line) => JSON.parse(line) !== null)).toBe(true);
    }
  });
});
