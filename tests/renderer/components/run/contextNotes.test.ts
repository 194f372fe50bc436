import { describe, expect, it } from 'vitest';
import type { EventOf, UnsequencedEvent } from '../../../../engine/contract/index.js';
import { activityRows, groupActivity } from '../../../../renderer/src/components/run/activityGroups.js';
import { contextNoteText } from '../../../../renderer/src/components/run/contextNoteText.js';
import type { ContextNote } from '../../../../renderer/src/store/runView.js';
import { play, ready, runId } from '../../../support/runViewFixture.js';

const trimmed = (fields: Partial<EventOf<'context-trimmed'>> = {}): UnsequencedEvent => ({
  type: 'context-trimmed',
  runId,
  phase: 'research',
  setAside: 12,
  condensed: 0,
  cut: 0,
  promptTokens: 47_000,
  budget: 96_000,
  contextWindow: 128_000,
  ...fields,
});

const note = (fields: Partial<ContextNote>): ContextNote => ({ phase: 'research', itemIndex: null, afterCallId: null, setAside: 0, condensed: 0, cut: 0, afterRefusal: false, ...fields });

describe('run view: a request fitted to the context budget', () => {
  const events: UnsequencedEvent[] = [
    { type: 'run-started', runId, messageId: 'u1', startedAt: 1_000 },
    { type: 'phase-started', runId, phase: 'research' },
    { type: 'tool-started', runId, callId: 'c1', tool: 'read_file', args: { path: 'a.ts' } },
    { type: 'tool-finished', runId, callId: 'c1', ok: true, summary: 'a.ts: lines 1–900 of 900', durationMs: 3 },
    trimmed(),
    { type: 'tool-started', runId, callId: 'c2', tool: 'read_file', args: { path: 'b.ts' } },
  ];

  it('shows in the activity feed after the call it followed, and gives the context meter its budget', () => {
    const run = play(ready, events).run!;
    expect(run.contextBudget).toEqual({ budget: 96_000, contextWindow: 128_000 });
    expect(run.contextNotes).toEqual([note({ afterCallId: 'c1', setAside: 12 })]);
    const [group] = groupActivity(run.activity, run.items, run.contextNotes);
    expect(activityRows(group!).map((row) => (row.kind === 'call' ? row.entry.callId : contextNoteText(row.note)))).toEqual([
      'c1',
      '12 older results set aside; the model can recall them',
      'c2',
    ]);
  });

  it('says what was set aside, condensed and cut, and when the server refused the request', () => {
    expect(contextNoteText(note({ setAside: 1 }))).toBe('1 older result set aside; the model can recall them');
    expect(contextNoteText(note({ setAside: 2, condensed: 3, cut: 1 }))).toBe(
      '2 older results set aside, 3 earlier turns condensed and 1 new result cut to fit; the model can recall them',
    );
    expect(contextNoteText(note({ afterRefusal: true }))).toBe('The model server found the request too long: the context budget shrank and the turn is asked again.');
    expect(contextNoteText(note({ afterRefusal: true, cut: 2 }))).toBe(
      'The model server found the request too long: the context budget shrank and the turn is asked again (2 new results cut to fit; the model can recall them).',
    );
  });
});
