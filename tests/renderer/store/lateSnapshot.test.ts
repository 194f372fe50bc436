import { describe, expect, it } from 'vitest';
import type { Result, Snapshot } from '../../../engine/contract/index.js';
import type { Workbench } from '../../../engine/index.js';
import { createWorkbenchStore, type WorkbenchStore } from '../../../renderer/src/store/workbenchStore.js';
import { browserHostBridge } from '../../support/dispatchBridge.js';
import { useFakeLlm } from '../../support/fakeLlm/useFakeLlm.js';
import { useOpenedWorkbenches } from '../../support/openedWorkbenches.js';
import { call, fakeModelOptions, planText, say } from '../../support/rpiScript.js';
import { useTempFolders, writeTree } from '../../support/tempFolder.js';
import { until } from '../../support/storeUntil.js';

type State = ReturnType<WorkbenchStore['getState']>;


/**
 * A page whose snapshot requests (`workbench:snapshot`, and `folders:open`, which answers one) can be held
 * back, as a slow transport or a busy engine holds them: `hold('answers')` lets the engine take the
 * snapshot when asked and hands it to the page on release, after later events; `hold('requests')` lets the
 * request reach the engine only on release.
 */
async function slowSnapshotPage(workbench: Workbench, configDir: string) {
  const bridge = browserHostBridge(workbench, configDir);
  const held: Array<() => void> = [];
  const taken: Snapshot[] = [];
  const asked: Array<string | null> = [];
  const onTaken: Array<() => void> = [];
  let holding: 'answers' | 'requests' | null = null;
  const wait = () => new Promise<void>((resolve) => held.push(resolve));
  const slow = <P>(send: (payload: P) => Promise<unknown>, conversationOf: (payload: P) => string | null) => async (payload: P) => {
    asked.push(conversationOf(payload));
    if (holding === 'requests') await wait();
    const holdAnswer = holding === 'answers';
    const answer = (await send(payload)) as Result<Snapshot | null>;
    if (answer.ok && answer.value) taken.push(answer.value);
    for (const told of onTaken.splice(0)) told();
    if (holdAnswer) await wait();
    return answer;
  };
  const request = bridge.request as unknown as Record<string, (payload: unknown) => Promise<unknown>>;
  request['workbench:snapshot'] = slow(request['workbench:snapshot']!, (payload) => (payload as { conversationId?: string }).conversationId ?? null);
  request['folders:open'] = slow(request['folders:open']!, () => null);
  const store = createWorkbenchStore(bridge);
  await store.getState().start();
  return {
    store,
    taken,
    /** The conversation each snapshot request named (null: none), in order. */
    asked,
    /** Resolves once the engine has taken `count` snapshots. */
    taking: async (count: number) => {
      while (taken.length < count) await new Promise<void>((resolve) => onTaken.push(resolve));
    },
    hold: (what: 'answers' | 'requests' = 'answers') => (holding = what),
    /** Answers from now on as they come; those held so far stay held until release. */
    stopHolding: () => (holding = null),
    release: () => {
      holding = null;
      for (const resolve of held.splice(0)) resolve();
    },
  };
}

const pendingCards = (state: State) => state.run?.approvals.filter((card) => card.status === 'pending').map((card) => card.args.path) ?? [];

describe('a snapshot that arrives after later events', () => {
  const tempFolder = useTempFolders('rpi-late-snapshot-');
  const llm = useFakeLlm();
  const open = useOpenedWorkbenches();

  /** A folder whose run writes two files, each asked for approval; `scripted: false` leaves the model without answers. */
  async function twoApprovalRun({ scripted = true } = {}) {
    const root = await tempFolder();
    const configDir = await tempFolder();
    await writeTree(root, { 'README.md': 'two files\n' });
    if (scripted) llm().enqueue(
      say('Research: a README.'),
      say(planText('Write a', 'Write b')),
      call('write_file', { path: 'a.txt', content: 'a\n' }),
      say('done'),
      call('write_file', { path: 'b.txt', content: 'b\n' }),
      say('done'),
      say('Wrote a.txt and b.txt.'),
    );
    const approvals = { files: 'ask' as const, commands: 'ask' as const, timeoutSeconds: 600, reviewPlan: false };
    const workbench = await open(root, { ...fakeModelOptions(llm()), approvals: async () => approvals });
    return { workbench, configDir };
  }

  async function approveShown(store: WorkbenchStore, path: string) {
    await until(store, (state) => pendingCards(state).includes(path));
    const card = store.getState().run!.approvals.find((approval) => approval.args.path === path)!;
    expect(await store.getState().approve({ requestId: card.requestId, decision: 'approve' })).toMatchObject({ ok: true });
  }

  it('keeps the page at the latest event: the second approval stays shown, the first answered', async () => {
    const { workbench, configDir } = await twoApprovalRun();
    const page = await slowSnapshotPage(workbench, configDir);
    const { store } = page;
    expect(await store.getState().send('Write a.txt and b.txt')).toBe(true);
    await until(store, (state) => pendingCards(state).includes('a.txt'));

    // Asked for while the run waits on the first approval; answered only once it waits on the second.
    page.hold();
    const resynced = store.getState().resync();
    await page.taking(2);
    await approveShown(store, 'a.txt');
    await until(store, (state) => pendingCards(state).includes('b.txt'));
    const latest = store.getState();
    expect(page.taken.at(-1)!.lastSeq).toBeLessThan(latest.lastSeq);
    page.release();
    await resynced;

    const state = store.getState();
    expect(state.lastSeq).toBe(latest.lastSeq);
    expect(pendingCards(state)).toEqual(['b.txt']);
    expect(state.run).toEqual(latest.run);
    expect(state.needsResync).toBe(false);

    // The page goes on from there: the second answer finishes the run.
    await approveShown(store, 'b.txt');
    await until(store, (done) => done.run?.status === 'done' && !done.running);
    expect(store.getState().messages.at(-1)?.text).toBe('Wrote a.txt and b.txt.');
  }, 30_000);

  it('asks once more when a resync is asked for while one is on its way, and then shows what a new page shows', async () => {
    const { workbench, configDir } = await twoApprovalRun();
    const page = await slowSnapshotPage(workbench, configDir);
    const { store } = page;
    page.hold();
    const first = store.getState().resync();
    const second = store.getState().resync();
    await page.taking(2);
    expect(await store.getState().send('Write a.txt and b.txt')).toBe(true);
    await approveShown(store, 'a.txt');
    await approveShown(store, 'b.txt');
    await until(store, (state) => state.run?.status === 'done' && !state.running);
    const latest = store.getState();
    page.release();
    await Promise.all([first, second]);

    // Both resyncs end together, the page at the run's end: the held snapshot (taken before the run) was
    // followed by one more, which the second resync and the run's end had asked for meanwhile.
    expect(page.taken.map((snapshot) => snapshot.lastSeq)).toEqual([0, 0, latest.lastSeq]);
    expect(store.getState().lastSeq).toBe(latest.lastSeq);
    expect(store.getState().run).toEqual(latest.run);
    // Each call is filed under the step it worked for, as the engine named it, in the live and the drawn view alike.
    expect(latest.run!.activity.map((entry) => [entry.tool, entry.itemIndex])).toEqual([
      ['write_file', 0],
      ['write_file', 1],
    ]);
    const fresh = createWorkbenchStore(browserHostBridge(workbench, configDir));
    await fresh.getState().start();
    const shown = store.getState();
    expect(shown.run).toEqual(fresh.getState().run);
    expect(shown.messages).toEqual(fresh.getState().messages);
    expect(shown.lastSeq).toBe(fresh.getState().lastSeq);
    expect(shown.folder).toEqual(fresh.getState().folder);
  }, 30_000);

  it('does not draw a snapshot asked for before the page moved to another conversation', async () => {
    const { workbench, configDir } = await twoApprovalRun({ scripted: false });
    const page = await slowSnapshotPage(workbench, configDir);
    const { store } = page;
    await store.getState().newConversation();
    const first = store.getState().conversationId!;
    page.hold();
    const resynced = store.getState().resync();
    await page.taking(3);
    page.stopHolding();
    await store.getState().newConversation();
    const second = store.getState().conversationId!;
    expect(second).not.toBe(first);
    page.release();
    await resynced;
    expect(page.taken[2]!.conversationId).toBe(first);
    expect(store.getState().conversationId).toBe(second);
    expect(store.getState().conversations.map((conversation) => conversation.id)).toContain(second);
  }, 30_000);

  it('a resync asked during a switch asks for the conversation the page is going to, and the page gets there', async () => {
    const { workbench, configDir } = await twoApprovalRun({ scripted: false });
    const page = await slowSnapshotPage(workbench, configDir);
    const { store } = page;
    await store.getState().newConversation();
    const first = store.getState().conversationId!;
    await store.getState().newConversation();
    const before = page.taken.length;
    page.hold();
    const switching = store.getState().switchConversation(first);
    const resynced = store.getState().resync();
    await page.taking(before + 2);
    page.release();
    await Promise.all([switching, resynced]);
    expect(page.asked.slice(-2)).toEqual([first, first]);
    expect(store.getState().conversationId).toBe(first);
  }, 30_000);

  it('a snapshot request that fails goes round again when another was asked for meanwhile, without an error', async () => {
    const { workbench, configDir } = await twoApprovalRun({ scripted: false });
    const page = await slowSnapshotPage(workbench, configDir);
    const { store } = page;
    await store.getState().newConversation();
    const kept = store.getState().conversationId!;
    await store.getState().newConversation();
    const deleted = store.getState().conversationId!;
    // Asked for the shown conversation; it reaches the engine only after that conversation is deleted.
    page.hold('requests');
    const resynced = store.getState().resync();
    expect(await store.getState().deleteConversation(deleted)).toMatchObject({ ok: true });
    expect(store.getState()).toMatchObject({ conversationId: null, needsResync: true });
    page.release();
    await resynced;
    expect(page.asked.slice(-2)).toEqual([deleted, null]);
    expect(store.getState()).toMatchObject({ conversationId: kept, needsResync: false, error: null });
  }, 30_000);

  it('a folder opened again while its run goes on shows where the run is, not where it was when opened', async () => {
    const { workbench, configDir } = await twoApprovalRun();
    const page = await slowSnapshotPage(workbench, configDir);
    const { store } = page;
    page.hold();
    const opening = store.getState().openFolder(workbench.folder);
    expect(await store.getState().send('Write a.txt and b.txt')).toBe(true);
    await until(store, (state) => pendingCards(state).includes('a.txt'));
    const latest = store.getState();
    page.release();
    await opening;
    expect(store.getState().lastSeq).toBe(latest.lastSeq);
    expect(pendingCards(store.getState())).toEqual(['a.txt']);
    expect(store.getState().run).toEqual(latest.run);
  }, 30_000);
});
