import { stat } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { EventOf } from '../../../engine/contract/index.js';
import { useFakeLlm } from '../../support/fakeLlm/useFakeLlm.js';
import { useOpenedWorkbenches } from '../../support/openedWorkbenches.js';
import { call, fakeModelOptions, planText, recordEvents, say } from '../../support/rpiScript.js';
import { startRun } from '../../support/startRun.js';
import { useTempFolders, writeTree } from '../../support/tempFolder.js';

const exists = (file: string) => stat(file).then(() => true, () => false);
const workbook = (target: string) => call('write_xlsx', { path: target, sheets: [{ name: 'Totals', rows: [['category', 'amount'], ['Food', -12.5]] }] });

describe('write_xlsx gets the approval and checkpoint of write_file', () => {
  const tempFolder = useTempFolders('rpi-xlsx-approval-');
  const llm = useFakeLlm();
  const open = useOpenedWorkbenches();

  async function run(target: string, files: 'ask' | 'auto') {
    const root = await tempFolder();
    await writeTree(root, { 'README.md': '# demo\n' });
    llm().enqueue(say('research'), say(planText('Workbook')), workbook(target), say('done'), say('Summary.'));
    const workbench = await open(root, { ...fakeModelOptions(llm()), approvals: async () => ({ files, commands: 'ask', timeoutSeconds: 600, reviewPlan: false }) });
    const events = recordEvents(workbench);
    const requested = new Promise<EventOf<'approval-requested'>>((resolve) => {
      workbench.subscribe((event) => {
        if (event.type === 'approval-requested') resolve(event);
      });
    });
    const started = await startRun(workbench, 'Make a workbook');
    return { root, workbench, events, started, requested };
  }

  it('asks with the real path when file changes need approval, and writes nothing when denied', async () => {
    const { root, workbench, started, requested } = await run('reports/totals.xlsx', 'ask');
    const request = await requested;
    expect(request).toMatchObject({ tool: 'write_xlsx', path: path.join(root, 'reports', 'totals.xlsx'), reason: 'file changes need your approval' });
    await workbench.request('session:approve', { requestId: request.requestId, decision: 'deny' });
    expect((await started.finished).status).toBe('done');
    expect(await exists(path.join(root, 'reports', 'totals.xlsx'))).toBe(false);
  });

  it('always asks for a protected path, even when file changes run without asking', async () => {
    const { root, workbench, started, requested } = await run('.github/totals.xlsx', 'auto');
    const request = await requested;
    expect(request.reason).toMatch(/^\.github\/totals\.xlsx: .*always need your approval$/);
    await workbench.request('session:approve', { requestId: request.requestId, decision: 'approve' });
    expect((await started.finished).status).toBe('done');
    expect(await exists(path.join(root, '.github', 'totals.xlsx'))).toBe(true);
  });

  it('takes a checkpoint first, so undo removes the workbook', async () => {
    const { root, workbench, events, started } = await run('totals.xlsx', 'auto');
    expect((await started.finished).status).toBe('done');
    expect(events.some((event) => event.type === 'approval-requested')).toBe(false);
    expect(await exists(path.join(root, 'totals.xlsx'))).toBe(true);
    const [user] = (await workbench.request('workbench:snapshot')).conversation;
    expect((await workbench.request('session:undo', { messageId: user!.id })).restoredFiles).toEqual(['totals.xlsx']);
    expect(await exists(path.join(root, 'totals.xlsx'))).toBe(false);
  });
});
