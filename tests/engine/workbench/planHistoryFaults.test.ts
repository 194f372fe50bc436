import { mkdir, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { WorkbenchEvent } from '../../../engine/contract/index.js';
import type { Workbench } from '../../../engine/index.js';
import { CheckpointStore } from '../../../engine/checkpoints/checkpointStore.js';
import { ConversationStore } from '../../../engine/store/conversation.js';
import { newMessage } from '../../../engine/workbench/newMessage.js';
import { keepCurrentRun } from '../../../engine/workbench/runHistory.js';
import { HeldFolder, NotAPlainFolderError } from '../../../engine/workspace/heldFolder.js';
import { useFakeLlm } from '../../support/fakeLlm/useFakeLlm.js';
import { useOpenedWorkbenches } from '../../support/openedWorkbenches.js';
import { fakeModelOptions, phaseOfRequest, planText } from '../../support/rpiScript.js';
import { followRun } from '../../support/startRun.js';
import { useTempFolders } from '../../support/tempFolder.js';
import { keptFile, keptRuns, oneStep, request, threeRequests } from '../../support/planHistory.js';
import { deadPid } from '../../support/processProbe.js';

const stateOf = (root: string) => path.join(root, '.workbench');

/** How a clear of rpi/ cut short by a crash can leave `.workbench/`, each simulated on disk. */
const partialClears: { name: string; clear: (stateDir: string) => Promise<void> }[] = [
  // The plain recursive removal of an earlier engine, stopped half-way, in either order.
  { name: 'rpi/ half removed in place, research.md first', clear: (dir) => rm(path.join(dir, 'rpi', 'research.md')) },
  { name: 'rpi/ half removed in place, run.json first', clear: (dir) => rm(path.join(dir, 'rpi', 'run.json')) },
  // The clear of this engine: rpi/ renamed away, then removed under its new name; stopped during the removal.
  {
    name: 'rpi/ renamed away and half removed, research.md first',
    clear: async (dir) => {
      const cleared = path.join(dir, `.rpi.${deadPid()}.0a1b2c3d.cleared`);
      await rename(path.join(dir, 'rpi'), cleared);
      await rm(path.join(cleared, 'research.md'));
    },
  },
  {
    name: 'rpi/ renamed away and half removed, run.json first',
    clear: async (dir) => {
      const cleared = path.join(dir, `.rpi.${deadPid()}.ffffffff.cleared`);
      await rename(path.join(dir, 'rpi'), cleared);
      await rm(path.join(cleared, 'run.json'));
    },
  },
];

describe('the plan history when things go wrong', () => {
  const tempFolder = useTempFolders('rpi-plan-faults-');
  const llm = useFakeLlm();
  const open = useOpenedWorkbenches();
  afterEach(() => void vi.restoreAllMocks());

  function recorded(workbench: Workbench): WorkbenchEvent[] {
    const events: WorkbenchEvent[] = [];
    workbench.subscribe((event) => void events.push(event));
    return events;
  }

  it.each(partialClears)('a crash while clearing rpi/ for a new request ($name) loses nothing kept, and resume runs the new request from its research', async ({ clear }) => {
    const root = await tempFolder();
    const workbench = await open(root, fakeModelOptions(llm()));
    llm().enqueue(...oneStep('First'));
    const first = await request(workbench, 'One');
    const research = await readFile(path.join(stateOf(root), 'rpi', 'research.md'), 'utf8');
    const plan = await readFile(path.join(stateOf(root), 'rpi', 'plan.md'), 'utf8');
    await workbench.close();
    // What a new request does before it clears rpi/ (keep the earlier run, add the request), then the cut-short clear.
    await keepCurrentRun(stateOf(root));
    await new ConversationStore(stateOf(root)).append(newMessage('user', 'Two'));
    await clear(stateOf(root));

    const before = llm().chatRequests().length;
    llm().enqueue(...oneStep('Second'));
    const reopened = await open(root, fakeModelOptions(llm()));
    expect((await readdir(stateOf(root))).filter((name) => name.endsWith('.cleared'))).toEqual([]);
    const resumed = await followRun(reopened, reopened.request('session:resume'));
    expect((await resumed.finished).status).toBe('done');

    expect(llm().chatRequests().slice(before).map(phaseOfRequest)).toEqual(['research', 'plan', 'implement', 'summary']);
    expect(await keptRuns(root)).toEqual([first]);
    expect(await readFile(keptFile(root, first, 'research.md'), 'utf8')).toBe(research);
    expect(await readFile(keptFile(root, first, 'plan.md'), 'utf8')).toBe(plan);
    expect((await reopened.request('workbench:snapshot')).runs).toEqual({
      [first]: { research: true, plan: { done: 1, failed: 0, total: 1 }, checks: { passed: 0, failed: 0, denied: 0, none: 1 } },
      [resumed.messageId]: { research: true, plan: { done: 1, failed: 0, total: 1 }, checks: { passed: 0, failed: 0, denied: 0, none: 1 } },
    });
    expect((await reopened.request('session:run-file', { messageId: resumed.messageId, file: 'plan' })).text).toMatch(/^- \[x\] 1\. Second/m);
  });

  const removalFailures: { name: string; error: (at: string) => Error; reason: string }[] = [
    { name: 'a busy folder', error: (at) => Object.assign(new Error(`EBUSY: resource busy or locked, rmdir '${at}'`), { code: 'EBUSY', syscall: 'rmdir' }), reason: 'rmdir failed with EBUSY' },
    { name: 'a read-only folder', error: (at) => Object.assign(new Error(`EACCES: permission denied, unlink '${at}'`), { code: 'EACCES', syscall: 'unlink' }), reason: 'unlink failed with EACCES' },
    { name: 'an entry swapped while removed', error: (at) => new NotAPlainFolderError(at, 'symlink'), reason: 'something in it became a symlink while it was removed' },
  ];

  it.each(removalFailures)('undo completes when a kept run it cuts cannot be removed ($name): a warning says what was left', async ({ error, reason }) => {
    const root = await tempFolder();
    const workbench = await open(root, fakeModelOptions(llm()));
    const [first, second] = await threeRequests(workbench, llm());
    expect(await keptRuns(root)).toEqual([first, second].sort());
    // The removal of runs/<second> fails the way the file system can make it fail, whoever runs the test.
    const removeEntry = HeldFolder.prototype.removeEntry;
    vi.spyOn(HeldFolder.prototype, 'removeEntry').mockImplementation(function (this: HeldFolder, name: string) {
      if (name === second) return Promise.reject(error(this.entry(name)));
      return removeEntry.call(this, name);
    });
    const events = recorded(workbench);

    await workbench.request('session:undo', { messageId: second });

    expect(events.filter((event) => event.type === 'warning' || event.type === 'conversation-reset').map((event) => event.type)).toEqual(['warning', 'conversation-reset']);
    expect(events[0]).toMatchObject({
      type: 'warning',
      message: `The plan history of an undone request was left in .workbench/runs/${second}, which could not be removed (${reason}); it is no longer shown, and can be deleted by hand.`,
    });
    const snapshot = await workbench.request('workbench:snapshot');
    expect(snapshot.conversation.map((message) => message.text)).toEqual(['One', 'Summary of First.']);
    // Left on disk, never shown: no request of the conversation is that one.
    expect(await keptRuns(root)).toEqual([first, second].sort());
    expect(snapshot.runs).toEqual({ [first]: { research: true, plan: { done: 1, failed: 0, total: 1 }, checks: { passed: 0, failed: 0, denied: 0, none: 1 } } });

    // The history is consistent: the same message cannot be undone twice, and regenerate sends again.
    await expect(workbench.request('session:undo', { messageId: second })).rejects.toThrow(`There is no message "${second}"`);
    vi.restoreAllMocks();
    llm().enqueue(...oneStep('Again'));
    const again = await followRun(workbench, workbench.request('session:regenerate', { messageId: first }));
    expect((await again.finished).status).toBe('done');
    expect((await workbench.request('workbench:snapshot')).conversation.map((message) => message.text)).toEqual(['One', 'Summary of Again.']);
    // The regenerate's undo also took the run left before: no message of the conversation names it.
    expect(await keptRuns(root)).toEqual([]);
  });

  it('undo keeps the kept runs of requests on lines the history cannot read, and removes those of no message', async () => {
    const root = await tempFolder();
    const workbench = await open(root, fakeModelOptions(llm()));
    const [first, second, third] = await threeRequests(workbench, llm());
    expect(await keptRuns(root)).toEqual([first, second].sort());
    // The first request's line no longer parses (its id is still on it); the history skips it, the file keeps it.
    const file = path.join(stateOf(root), 'conversation.jsonl');
    const lines = (await readFile(file, 'utf8')).split('\n');
    const index = lines.findIndex((line) => line.includes(first));
    lines[index] = lines[index]!.replace('"role":"user"', '"role":"someone"');
    await writeFile(file, lines.join('\n'));
    // A run kept for a message that is nowhere (an undo that stopped before removing it).
    await mkdir(path.join(stateOf(root), 'runs', 'm-orphaned-run'));
    await writeFile(path.join(stateOf(root), 'runs', 'm-orphaned-run', 'plan.md'), planText('Orphan'));
    expect((await workbench.request('workbench:snapshot')).conversation.map((message) => message.text)).toEqual(['Summary of First.', 'Two', 'Summary of Second.', 'Three', 'Summary of Third.']);

    await workbench.request('session:undo', { messageId: third });

    expect(await keptRuns(root)).toEqual([first, second].sort());
    expect(await readFile(keptFile(root, first, 'plan.md'), 'utf8')).toMatch(/^- \[x\] 1\. First/m);
    expect(await readFile(file, 'utf8')).toContain(`"id":"${first}"`);
    // Its checkpoint (the way back to before it) is kept too; the undone request's is collected.
    const checkpoints = await (await CheckpointStore.open(root, stateOf(root))).list();
    const requestsWithCheckpoints = new Set(checkpoints.filter((info) => info.tag.reason === 'run').map((info) => info.tag.messageId));
    expect(requestsWithCheckpoints.has(first)).toBe(true);
    expect(requestsWithCheckpoints.has(second)).toBe(true);
    expect(requestsWithCheckpoints.has(third)).toBe(false);
  });
});
