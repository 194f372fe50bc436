import { describe, expect, it } from 'vitest';
import type { UnsequencedEvent } from '../../../engine/contract/index.js';
import { eventFeeder } from '../../support/eventFeeder.js';
import { ConversationRunEvents } from '../../../engine/workbench/conversationRunEvents.js';

const started = (runId: string, conversationId: string): UnsequencedEvent => ({ type: 'run-started', runId, conversationId, messageId: `m-${runId}`, startedAt: 1 });
const phase = (runId: string): UnsequencedEvent => ({ type: 'phase-started', runId, phase: 'research' });

describe('ConversationRunEvents', () => {
  it('keeps each conversation’s latest run, its events told apart by run id', () => {
    const runs = new ConversationRunEvents();
    const feed = eventFeeder(runs);
    const first = feed(started('r1', 'a'), phase('r1'));
    const second = feed(started('r2', 'b'), phase('r2'), { type: 'run-finished', runId: 'r2', status: 'done' } as UnsequencedEvent);
    feed(phase('r1')); // a late event of a's run still goes to a

    expect(runs.events('a').map((event) => event.seq)).toEqual([...first.map((event) => event.seq), 6]);
    expect(runs.events('b')).toEqual(second);
    expect(runs.events('c')).toEqual([]);
    expect(runs.events(null)).toEqual([]);

    const third = feed(started('r3', 'a'));
    expect(runs.events('a')).toEqual(third);
  });

  it('forgets a conversation’s run when told to or when the conversation is deleted, and keeps 16 conversations at most', () => {
    const runs = new ConversationRunEvents();
    const feed = eventFeeder(runs);
    feed(started('r1', 'a'), started('r2', 'b'));
    runs.clear('a');
    feed({ type: 'conversation-deleted', runId: null, deletedId: 'b' });
    expect([runs.events('a'), runs.events('b')]).toEqual([[], []]);

    for (let n = 0; n < 17; n += 1) feed(started(`s${n}`, `c${n}`));
    expect(runs.events('c0')).toEqual([]);
    expect(runs.events('c1')).toHaveLength(1);
    expect(runs.events('c16')).toHaveLength(1);
  });
});
