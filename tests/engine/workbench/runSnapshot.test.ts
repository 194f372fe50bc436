import { describe, expect, it } from 'vitest';
import { snapshotSchema, type Snapshot, type WorkbenchEvent } from '../../../engine/contract/index.js';
import type { Workbench } from '../../../engine/index.js';
import { useFakeLlm } from '../../support/fakeLlm/useFakeLlm.js';
import { useOpenedWorkbenches } from '../../support/openedWorkbenches.js';
import { folderAfterOneRun } from '../../support/folderAfterOneRun.js';
import { call, fakeModelOptions, planText, say } from '../../support/rpiScript.js';
import { useTempFolders } from '../../support/tempFolder.js';
import { followRun, startRun } from '../../support/startRun.js';
import { cancelledAtStepTwo, researchText } from './stoppedRun.js';

/** The snapshot taken as soon as the first event of this type goes out, before anything else happens. */
function snapshotOn(workbench: Workbench, type: WorkbenchEvent['type']): Promise<Snapshot> {
  return new Promise((resolve, reject) => {
    const stop = workbench.subscribe((event) => {
      if (event.type !== type) return;
      stop();
      workbench.request('workbench:snapshot').then(resolve, reject);
    });
  });
}

describe('what a snapshot says about the run', () => {
  const tempFolder = useTempFolders('rpi-run-snapshot-');
  const llm = useFakeLlm();
  const open = useOpenedWorkbenches();

  const content = `${'x'.repeat(4_999)}\n`;

  /** One whole run that writes a 5,000-character file. */
  const afterBigWrite = async () =>
    folderAfterOneRun({
      root: await tempFolder(),
      llm: llm(),
      open,
      turns: [say('research'), say(planText('Write')), call('write_file', { path: 'big.txt', content }), say('Written.'), say('Wrote big.txt, 5,000 characters.')],
      request: 'Write a big file',
    });

  describe('runEvents', () => {
    it('replays the run: its events from run-started, the summary as its message, long tool arguments shortened', async () => {
      const { workbench, events, runId, messageId } = await afterBigWrite();
      const snapshot = await workbench.request('workbench:snapshot');

      const shortened = `${'x'.repeat(400)}… (5000 chars)`;
      // Events that restate a whole (the plan, the model's status, the window, the usage per step) are kept once, the latest.
      const latestOnly = new Set(['plan-updated', 'plan-ready', 'model-status', 'context-window', 'run-usage']);
      const isLatest = (event: WorkbenchEvent, index: number) => !latestOnly.has(event.type) || !events.slice(index + 1).some((later) => later.type === event.type && later.runId === event.runId);
      const expected = events
        .filter((event, index) => event.runId === runId && event.type !== 'summary-delta' && isLatest(event, index))
        .map((event): WorkbenchEvent => (event.type === 'tool-started' && event.tool === 'write_file' ? { ...event, args: { path: 'big.txt', content: shortened } } : event));
      expect(events.some((event) => event.type === 'summary-delta')).toBe(true);
      expect(events.find((event) => event.type === 'tool-started')).toMatchObject({ args: { content } });
      expect(snapshot.runEvents).toEqual(expected);
      expect(snapshot.runEvents?.[0]).toMatchObject({ type: 'run-started', messageId });
      expect(snapshot.runEvents?.at(-1)).toMatchObject({ type: 'run-finished', status: 'done', seq: snapshot.lastSeq });
    });

    it('passes the contract’s snapshot schema unchanged', async () => {
      const { workbench } = await afterBigWrite();
      const snapshot = await workbench.request('workbench:snapshot');
      const parsed = snapshotSchema.safeParse(snapshot);
      expect(parsed.error).toBeUndefined();
      expect(parsed.data).toEqual(snapshot);
    });

    it('shows a run in progress up to the last event before the snapshot', async () => {
      let during: Snapshot | undefined;
      const { started } = await cancelledAtStepTwo({
        open,
        llm: llm(),
        root: await tempFolder(),
        whileRunning: async (workbench) => void (during = await workbench.request('workbench:snapshot')),
      });
      expect(during).toMatchObject({ running: true, resumable: false });
      expect(during?.runEvents?.[0]).toMatchObject({ type: 'run-started', runId: started.runId });
      expect(during?.runEvents?.at(-1)?.seq).toBe(during?.lastSeq);
      // The count of the first step's changes runs in the background and may land after the command started.
      const steps = during?.runEvents?.filter((event) => event.type !== 'changes-updated');
      expect(steps?.at(-1)).toMatchObject({ type: 'tool-started', tool: 'run_command' });
    });

    it('is forgotten by undo, already in a snapshot taken on its conversation-reset, and replaced by the next run', async () => {
      const { workbench, messageId } = await afterBigWrite();
      const onReset = snapshotOn(workbench, 'conversation-reset');
      await workbench.request('session:undo', { messageId: messageId });
      expect((await onReset).runEvents).toEqual([]);
      expect((await workbench.request('workbench:snapshot')).runEvents).toEqual([]);

      llm().enqueue(say('research'), say('# Execution Plan\n\n## Items\n'), say('Nothing to do.'));
      const next = await startRun(workbench, 'Anything else?');
      await next.finished;
      const { runEvents } = await workbench.request('workbench:snapshot');
      expect(new Set(runEvents?.map((event) => event.runId))).toEqual(new Set([next.runId]));
    });

    it('starts again with the run regenerate starts', async () => {
      const { workbench, messageId } = await afterBigWrite();
      llm().enqueue(say('research'), say('# Execution Plan\n\n## Items\n'), say('Nothing to do.'));
      const again = await followRun(workbench, workbench.request('session:regenerate', { messageId: messageId }));
      await again.finished;
      const { runEvents } = await workbench.request('workbench:snapshot');
      expect(runEvents?.[0]).toMatchObject({ type: 'run-started', runId: again.runId });
      expect(runEvents?.every((event) => event.runId === again.runId)).toBe(true);
    });
  });

  describe('resumable', () => {
    it('is false for a new folder, during a run and after a finished one', async () => {
      const { workbench } = await afterBigWrite();
      expect((await workbench.request('workbench:snapshot')).resumable).toBe(false);
      const fresh = await open(await tempFolder(), fakeModelOptions(llm()));
      expect(await fresh.request('workbench:snapshot')).toMatchObject({ resumable: false, runEvents: [] });
    });

    it('is true after a cancel, also in a workbench opened later, which has no run events to replay', async () => {
      const root = await tempFolder();
      let during: Snapshot | undefined;
      const stopped = await cancelledAtStepTwo({ open, llm: llm(), root, whileRunning: async (workbench) => void (during = await workbench.request('workbench:snapshot')) });
      expect(during?.resumable).toBe(false);
      expect(await stopped.workbench.request('workbench:snapshot')).toMatchObject({ resumable: true, running: false });
      expect((await stopped.workbench.request('workbench:snapshot')).runEvents?.at(-1)).toMatchObject({ type: 'run-finished', status: 'cancelled' });

      await stopped.workbench.close();
      const reopened = await open(root, fakeModelOptions(llm()));
      expect(await reopened.request('workbench:snapshot')).toMatchObject({ resumable: true, runEvents: [] });
    });
  });

  describe('readRpiFile', () => {
    it('reads the stopped run’s research and plan, and null once they are gone', async () => {
      const root = await tempFolder();
      const { workbench } = await cancelledAtStepTwo({ open, llm: llm(), root });

      expect((await workbench.request('rpi:read', { file: 'research' })).text).toBe(researchText);
      const plan = (await workbench.request('rpi:read', { file: 'plan' })).text;
      expect(plan).toContain('- [x] 1. First');
      expect(plan).toContain('- [ ] 2. Second');

      const onAnswer = snapshotOn(workbench, 'message-added');
      await workbench.request('session:discard');
      expect((await onAnswer).runEvents).toEqual([]);
      expect((await workbench.request('rpi:read', { file: 'research' })).text).toBeNull();
      expect((await workbench.request('rpi:read', { file: 'plan' })).text).toBeNull();
    });

    it('is null in a folder that never ran', async () => {
      const workbench = await open(await tempFolder());
      expect((await workbench.request('rpi:read', { file: 'research' })).text).toBeNull();
      expect((await workbench.request('rpi:read', { file: 'plan' })).text).toBeNull();
    });
  });
});
