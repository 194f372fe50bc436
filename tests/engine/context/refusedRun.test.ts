import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useFakeLlm } from '../../support/fakeLlm/useFakeLlm.js';
import { useOpenedWorkbenches } from '../../support/openedWorkbenches.js';
import { call, fakeModelOptions, planText, say } from '../../support/rpiScript.js';
import { startRun } from '../../support/startRun.js';
import { useTempFolders, writeTree } from '../../support/tempFolder.js';
import { refusedAsTooLong } from '../../support/contextRefusal.js';
import { conversationDir } from '../../support/conversationDir.js';

describe('a run whose model server refuses a request as too long, twice', () => {
  const tempFolder = useTempFolders('rpi-refused-');
  const llm = useFakeLlm();
  const open = useOpenedWorkbenches();

  it('stops with the plan item still pending, and resumes it once the server takes the request', async () => {
    const root = await tempFolder();
    await writeTree(root, { 'a.txt': 'alpha\n' });
    // The item's second turn is refused as too long, and its retry too.
    llm().enqueue(say('Research findings.'), say(planText('Read', 'Write')), call('read_file', { path: 'a.txt' }), refusedAsTooLong(4_096), refusedAsTooLong(4_096));
    const workbench = await open(root, fakeModelOptions(llm()));

    const failed = await (await startRun(workbench, 'Read a.txt, then write b.txt')).finished;

    expect(failed).toMatchObject({ status: 'failed', phase: 'implement' });
    expect(failed.error).toMatch(/ \(the server named 4,096\): set the context window in Settings/);
    expect(failed.error?.startsWith(`The model server at ${llm().baseUrl} refused the request as too long twice (HTTP 400), `)).toBe(true);
    expect((await workbench.request('workbench:snapshot')).rpi.items.map((item) => item.status)).toEqual(['pending', 'pending']);
    expect(await readFile(path.join(conversationDir(root), 'rpi', 'plan.md'), 'utf8')).toMatch(/^- \[ \] 1\. Read/m);

    llm().enqueue(say('Read it.'), call('write_file', { path: 'b.txt', content: 'beta\n' }), say('Wrote b.txt.'), say('Read a.txt and wrote b.txt.'));
    const resumed = await workbench.finished((await workbench.request('session:resume')).runId);

    expect(resumed).toMatchObject({ status: 'done', summary: 'Read a.txt and wrote b.txt.' });
    expect((await workbench.request('workbench:snapshot')).rpi.items.map((item) => item.status)).toEqual(['done', 'done']);
  });
});
