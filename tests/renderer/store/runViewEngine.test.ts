import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { WorkbenchEvent } from '../../../engine/contract/index.js';
import type { Workbench } from '../../../engine/index.js';
import { createWorkbenchStore, type WorkbenchStore } from '../../../renderer/src/store/workbenchStore.js';
import { browserHostBridge } from '../../support/dispatchBridge.js';
import { useFakeLlm } from '../../support/fakeLlm/useFakeLlm.js';
import { useOpenedWorkbenches } from '../../support/openedWorkbenches.js';
import { call, fakeModelOptions, planText, say } from '../../support/rpiScript.js';
import { useTempFolders, writeTree } from '../../support/tempFolder.js';
import { until } from '../../support/storeUntil.js';


// The engine runs in node here (the openai SDK refuses a DOM environment); the components are tested over a hand-made bridge.
describe('the run view over the real engine', () => {
  const tempFolder = useTempFolders('rpi-run-view-');
  const llm = useFakeLlm();
  const open = useOpenedWorkbenches();

  /** A page's store over the browser host's real handlers, started. */
  async function page(workbench: Workbench, configDir: string): Promise<WorkbenchStore> {
    const store = createWorkbenchStore(browserHostBridge(workbench, configDir));
    await store.getState().start();
    return store;
  }

  it('follows a run through the plan gate and an approval, and a reloaded page rebuilds the same view', async () => {
    const root = await tempFolder();
    const configDir = await tempFolder();
    await writeTree(root, { 'a.txt': 'alpha\n' });
    llm().enqueue(call('list_files', { path: '.' }), say('Research: one file.'), say(planText('Write b')), call('write_file', { path: 'b.txt', content: 'beta\n' }), say('done'), say('Wrote b.txt.'));
    const approvals = { files: 'ask' as const, commands: 'ask' as const, timeoutSeconds: 600, reviewPlan: true };
    const workbench = await open(root, { ...fakeModelOptions(llm()), approvals: async () => approvals });
    const store = await page(workbench, configDir);
    const events: WorkbenchEvent[] = [];
    workbench.subscribe((event) => events.push(event));

    expect(await store.getState().send('Write b.txt')).toBe(true);
    await until(store, (state) => state.run?.planReview !== null && state.run?.planReview !== undefined);
    expect(store.getState().run).toMatchObject({ statusLine: 'Waiting for you to review the plan', planReview: { items: [{ label: 'Write b' }] } });
    const midway = await page(workbench, configDir);
    expect(midway.getState().run).toEqual(store.getState().run);
    expect(await store.getState().reviewPlan({ decision: 'approve' })).toEqual({ ok: true, value: { decision: 'approve' } });

    await until(store, (state) => (state.run?.approvals.length ?? 0) > 0);
    const [request] = store.getState().run!.approvals;
    expect(request).toMatchObject({ tool: 'write_file', path: path.join(root, 'b.txt'), status: 'pending' });
    expect(store.getState().run).toMatchObject({ statusLine: 'Working on step 1 of 1: Write b', runningItem: 0 });
    const refused = await store.getState().approve({ requestId: request!.requestId, decision: 'approve', args: { path: 'b.txt' } });
    expect(refused).toMatchObject({ ok: false, error: expect.stringMatching(/The edited arguments do not fit write_file: content: /) });
    expect(store.getState().error).toBeNull(); // the card shows the refusal, not the banner
    expect(await store.getState().approve({ requestId: request!.requestId, decision: 'approve' })).toEqual({ ok: true, value: { decision: 'approved' } });

    await until(store, (state) => state.run?.status !== 'running');
    const live = store.getState().run;
    expect(live).toMatchObject({ status: 'done', statusLine: 'Finished', approvals: [{ status: 'approved' }], planReview: null, items: [{ status: 'done' }] });
    expect(Object.values(live!.steps).map((step) => step.state)).toEqual(['done', 'done', 'done', 'done']);
    expect(live!.activity.map((entry) => [entry.tool, entry.phase, entry.itemIndex, entry.status])).toEqual([
      ['list_files', 'research', null, 'ok'],
      ['write_file', 'implement', 0, 'ok'],
    ]);
    expect(live!.totals.calls).toBe(6);
    expect(events.filter((event) => event.type === 'usage')).toHaveLength(6);

    const reloaded = await page(workbench, configDir);
    expect(reloaded.getState().run).toEqual(live);
    expect(reloaded.getState().messages.at(-1)?.text).toBe('Wrote b.txt.');
  }, 30_000);
});
