import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { EventOf, WorkbenchEvent } from '../../../engine/contract/index.js';
import type { Workbench } from '../../../engine/index.js';
import { useFakeLlm } from '../../support/fakeLlm/useFakeLlm.js';
import { useOpenedWorkbenches } from '../../support/openedWorkbenches.js';
import { autoApprovals, fakeModelOptions, firstUserText, phaseOfRequest, recordEvents, say } from '../../support/rpiScript.js';
import { followRun, startRun } from '../../support/startRun.js';
import { useTempFolders } from '../../support/tempFolder.js';
import { conversationDir } from '../../support/conversationDir.js';

const plan = '# Execution Plan\n\n## Items\n- [ ] 1. Tidy — rename the helpers\n- [ ] 2. Clean up — delete the old logs folder and run the tests\n';

function nextPlanReady(workbench: Workbench, events: WorkbenchEvent[], seen: number): Promise<EventOf<'plan-ready'>> {
  const ready = () => events.filter((event): event is EventOf<'plan-ready'> => event.type === 'plan-ready');
  if (ready().length > seen) return Promise.resolve(ready()[seen]!);
  return new Promise((resolve) => {
    const stop = workbench.subscribe((event) => {
      if (event.type !== 'plan-ready') return;
      stop();
      resolve(event);
    });
  });
}

describe('the plan review gate', () => {
  const tempFolder = useTempFolders('rpi-plan-gate-');
  const llm = useFakeLlm();
  const open = useOpenedWorkbenches();

  async function start() {
    const root = await tempFolder();
    llm().enqueue(say('research'), say(plan));
    const options = fakeModelOptions(llm());
    const workbench = await open(root, { ...options, approvals: async () => ({ ...autoApprovals, reviewPlan: true }) });
    const events = recordEvents(workbench);
    const started = await startRun(workbench, 'Tidy up');
    return { root, workbench, events, started };
  }

  it('waits after Plan with the items, the text and the risky items flagged, then runs once approved', async () => {
    const { workbench, events, started } = await start();
    const ready = await nextPlanReady(workbench, events, 0);
    expect(ready.items.map((item) => item.label)).toEqual(['Tidy', 'Clean up']);
    expect(ready.planText).toContain('- [ ] 2. Clean up');
    expect(ready.riskyItems).toEqual([{ index: 1, reason: expect.any(String) }]);
    expect((await workbench.request('workbench:snapshot')).planReview).toMatchObject({ items: [{ label: 'Tidy' }, { label: 'Clean up' }] });
    expect(llm().chatRequests()).toHaveLength(2);

    llm().enqueue(say('tidied'), say('cleaned'), say('Summary.'));
    await workbench.request('session:review-plan', { decision: 'approve' });
    expect((await started.finished).status).toBe('done');
    expect((await workbench.request('workbench:snapshot')).planReview).toBeNull();
  });

  it('flags an item with a check: the command the model wrote runs when the item is done', async () => {
    const root = await tempFolder();
    llm().enqueue(say('research'), say('# Execution Plan\n\n## Items\n- [ ] 1. Tidy — rename the helpers — Check: `npm test -- helpers`\n- [ ] 2. Docs — update the README\n'));
    const workbench = await open(root, { ...fakeModelOptions(llm()), approvals: async () => ({ ...autoApprovals, reviewPlan: true }) });
    const events = recordEvents(workbench);
    const started = await startRun(workbench, 'Tidy up');
    const ready = await nextPlanReady(workbench, events, 0);
    expect(ready.riskyItems).toEqual([{ index: 0, reason: 'when done it runs its check `npm test -- helpers`, a command the model wrote' }]);
    expect(ready.items[0]).toMatchObject({ check: 'npm test -- helpers' });
    await workbench.request('session:review-plan', { decision: 'reject' });
    expect((await started.finished).status).toBe('cancelled');
  });

  it('takes an edited plan only when it has items, and counts it afresh', async () => {
    const { root, workbench, events, started } = await start();
    await nextPlanReady(workbench, events, 0);
    await expect(workbench.request('session:review-plan', { decision: 'edit', plan: '# Execution Plan\n\nNothing here.\n' })).rejects.toThrow('The edited plan has no items');

    llm().enqueue(say('renamed'), say('Summary.'));
    await workbench.request('session:review-plan', { decision: 'edit', plan: '# Execution Plan\n<!-- original_count: 9 -->\n\n## Items\n- [ ] 1. Rename only — rename the helpers\n' });
    expect((await started.finished).status).toBe('done');
    const written = await readFile(path.join(conversationDir(root), 'rpi', 'plan.md'), 'utf8');
    expect(written).toContain('<!-- original_count: 1 -->');
    expect(written).not.toContain('original_count: 9');
    expect(written).toContain('- [x] 1. Rename only');
    const implement = llm().chatRequests().filter((request) => phaseOfRequest(request) === 'implement');
    expect(implement).toHaveLength(1);
    expect(firstUserText(implement[0]!)).toContain('1. Rename only');
  });

  it('ends the run as cancelled on reject, keeps the plan, and asks again on resume', async () => {
    const { workbench, events, started } = await start();
    await nextPlanReady(workbench, events, 0);
    await workbench.request('session:review-plan', { decision: 'reject' });
    const result = await started.finished;
    expect(result).toMatchObject({ status: 'cancelled', phase: 'plan', error: expect.stringContaining('rejected') });
    expect((await workbench.request('workbench:snapshot')).rpi.items).toHaveLength(2);

    const resumed = await followRun(workbench, workbench.request('session:resume'));
    await nextPlanReady(workbench, events, 1);
    expect(llm().chatRequests()).toHaveLength(2);
    llm().enqueue(say('tidied'), say('cleaned'), say('Summary.'));
    await workbench.request('session:review-plan', { decision: 'approve' });
    expect((await resumed.finished).status).toBe('done');
    await expect(workbench.request('session:review-plan', { decision: 'approve' })).rejects.toThrow('No plan is waiting for review');
  });
});
