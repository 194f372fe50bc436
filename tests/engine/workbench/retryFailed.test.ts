import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RunRefusedError } from '../../../engine/contract/index.js';
import { readRunRecord } from '../../../engine/rpi/runRecord.js';
import { useFakeLlm } from '../../support/fakeLlm/useFakeLlm.js';
import { useOpenedWorkbenches } from '../../support/openedWorkbenches.js';
import { call, fakeModelOptions, greetingDoneWorkbookFailed, phaseOfRequest, planText, requestText, say } from '../../support/rpiScript.js';
import { followRun, startRun } from '../../support/startRun.js';
import { useTempFolders, writeTree } from '../../support/tempFolder.js';
import { conversationDir } from '../../support/conversationDir.js';

describe('retry failed steps', () => {
  const tempFolder = useTempFolders('rpi-retry-');
  const llm = useFakeLlm();
  const open = useOpenedWorkbenches();

  it('sets only the failed steps back to pending, tells each its earlier failure, and answers the request again', async () => {
    const root = await tempFolder();
    await writeTree(root, { 'a.txt': 'alpha\n' });
    const workbench = await open(root, fakeModelOptions(llm()));
    llm().enqueue(...greetingDoneWorkbookFailed('research'));
    expect((await (await startRun(workbench, 'Greet and convert')).finished).status).toBe('done');
    expect((await workbench.request('workbench:snapshot')).rpi.items.map((item) => item.status)).toEqual(['done', 'failed']);
    const before = llm().chatRequests().length;

    llm().enqueue(call('write_file', { path: 'out.csv', content: 'x\n' }), say('Wrote out.csv instead.'), say('Both steps are done now.'));
    const retried = await workbench.finished((await workbench.request('session:retry-failed')).runId);

    expect(retried).toMatchObject({ status: 'done', summary: 'Both steps are done now.' });
    const after = llm().chatRequests().slice(before);
    expect(after.map(phaseOfRequest)).toEqual(['implement', 'implement', 'summary']);
    expect(requestText(after[0]!)).toContain('no spreadsheet writer is available');
    expect(requestText(after[0]!)).toContain('Workbook');
    expect(requestText(after[0]!)).not.toContain('Current item (step 1 of 2)');
    const snapshot = await workbench.request('workbench:snapshot');
    expect(snapshot.rpi.items.map((item) => item.status)).toEqual(['done', 'done']);
    expect(snapshot.conversation.map((message) => [message.role, message.text])).toEqual([
      ['user', 'Greet and convert'],
      ['assistant', 'Both steps are done now.'],
    ]);
    expect(await readFile(path.join(root, 'hello.txt'), 'utf8')).toBe('hi\n');
  });

  it('keeps a hand-edited failure reason of any length readable: the record a later resume reads still parses', async () => {
    const root = await tempFolder();
    const workbench = await open(root, fakeModelOptions(llm()));
    llm().enqueue(...greetingDoneWorkbookFailed('research'));
    await (await startRun(workbench, 'Greet and convert')).finished;
    const planFile = path.join(conversationDir(root), 'rpi', 'plan.md');
    const plan = await readFile(planFile, 'utf8');
    await writeFile(planFile, plan.replace('no spreadsheet writer is available', 'x'.repeat(5000)));

    llm().enqueue(say('Done this time.'), say('Both done.'));
    expect((await workbench.finished((await workbench.request('session:retry-failed')).runId)).status).toBe('done');
    const record = await readRunRecord(conversationDir(root));
    expect(record?.retryReasons?.['1']).toBe('x'.repeat(2000));
  });

  it('refuses with one sentence when the latest request has no failed step', async () => {
    const root = await tempFolder();
    const workbench = await open(root, fakeModelOptions(llm()));
    await expect(followRun(workbench, workbench.request('session:retry-failed'))).rejects.toThrow(new RunRefusedError('Nothing to retry: this folder has no request yet.'));
    llm().enqueue(say('research'), say(planText('Only')), say('done'), say('summary'));
    await (await startRun(workbench, 'Go')).finished;
    await expect(followRun(workbench, workbench.request('session:retry-failed'))).rejects.toThrow('Nothing to retry: the latest request has no failed steps.');
  });
});
