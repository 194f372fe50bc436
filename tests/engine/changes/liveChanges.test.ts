import { describe, expect, it } from 'vitest';
import type { WorkbenchEvent } from '../../../engine/contract/index.js';
import { followLiveChanges, minSpacingMs } from '../../../engine/changes/liveChanges.js';

/** A follower fed events by hand, whose recounts and pauses the test sees and ends. */
function follower() {
  let listener: (event: WorkbenchEvent) => void = () => {};
  const recounts: (readonly string[] | null)[] = [];
  const pauses: { ms: number; end: () => void }[] = [];
  // A clock that stands still: every call comes within the spacing, however slow the machine.
  const live = followLiveChanges({
    now: () => 0,
    subscribe: (next) => {
      listener = next;
      return () => {};
    },
    announce: async (_messageId, _runId, paths) => void recounts.push(paths),
    pause: (ms, signal) =>
      new Promise((resolve) => {
        pauses.push({ ms, end: () => resolve() });
        signal.addEventListener('abort', () => resolve(), { once: true });
      }),
  });
  let call = 0;
  const emit = (event: object) => listener(event as WorkbenchEvent);
  return {
    live,
    recounts,
    pauses,
    start: () => emit({ type: 'run-started', runId: 'run-1', messageId: 'm-1' }),
    write: (path: string) => {
      const callId = `call-${(call += 1)}`;
      emit({ type: 'tool-started', runId: 'run-1', callId, tool: 'write_file', args: { path, content: 'x\n' } });
      emit({ type: 'tool-finished', runId: 'run-1', callId, ok: true, summary: 'wrote', durationMs: 1 });
    },
  };
}

/** Lets the follower's pending promises run. */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('the live change count', () => {
  it('recounts at once after a call, then folds the calls that finish within the spacing into one recount', async () => {
    const { recounts, pauses, start, write } = follower();
    start();
    write('a.txt');
    await turn();
    expect(recounts).toEqual([['a.txt']]);

    for (const name of ['b.txt', 'c.txt', 'd.txt', 'e.txt']) write(name);
    await turn();
    // Waiting out the spacing since the first recount began: nothing recounted yet.
    expect(pauses).toHaveLength(1);
    expect(pauses[0]!.ms).toBe(minSpacingMs);
    expect(recounts).toHaveLength(1);

    pauses[0]!.end();
    await turn();
    expect(recounts).toEqual([['a.txt'], ['b.txt', 'c.txt', 'd.txt', 'e.txt']]);
  });

  it('does not keep a caller waiting for the count through the spacing: settled cuts it short and ends with a whole-folder recount', async () => {
    const { live, recounts, pauses, start, write } = follower();
    start();
    write('a.txt');
    await turn();
    write('b.txt');
    await turn();
    expect(pauses).toHaveLength(1);

    await live.settled();
    // b.txt's recount without the pause ending on its own, then the full recount a narrowed run ends with.
    expect(recounts).toEqual([['a.txt'], ['b.txt'], null]);
  });
});
