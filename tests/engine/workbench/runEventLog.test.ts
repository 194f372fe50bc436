import { describe, expect, it, vi } from 'vitest';
import type { UnsequencedEvent, WorkbenchEvent } from '../../../engine/contract/index.js';
import { eventFeeder } from '../../support/eventFeeder.js';
import { RunEventLog } from '../../../engine/workbench/runEventLog.js';

const runId = 'run-1';
const started: UnsequencedEvent = { type: 'run-started', runId, messageId: 'm-1', startedAt: 1_000 };
const tool = (n: number): UnsequencedEvent => ({ type: 'tool-started', runId, callId: `c${n}`, tool: 'read_file', args: { path: `f${n}.txt` } });
const types = (events: readonly WorkbenchEvent[]) => events.map((event) => event.type);

describe('RunEventLog', () => {
  it('keeps the latest run’s events from its run-started and nothing outside it', () => {
    const log = new RunEventLog();
    const feed = eventFeeder(log);
    feed({ type: 'warning', runId, message: 'before any run' }, { type: 'message-added', runId: null, message: { id: 'm-1', role: 'user', text: 'hi', ts: 1 } });
    const first = feed(started, { type: 'phase-started', runId, phase: 'research' });
    expect(log.events()).toEqual(first);

    const second = feed({ type: 'run-started', runId: 'run-2', messageId: 'm-1', startedAt: 1_000 });
    feed({ type: 'phase-started', runId, phase: 'plan' }, { type: 'conversation-reset', runId: null, messages: [] });
    expect(log.events()).toEqual(second);
  });

  it('keeps the summary as one delta of its text so far, and drops it once the summary message arrives', () => {
    const log = new RunEventLog();
    const feed = eventFeeder(log);
    feed(started, { type: 'phase-started', runId, phase: 'summary' });
    const deltas = feed({ type: 'summary-delta', runId, text: 'Wrote ' }, { type: 'summary-delta', runId, text: 'two ' }, { type: 'summary-delta', runId, text: 'files.' });

    expect(log.events().at(-1)).toEqual({ type: 'summary-delta', runId, text: 'Wrote two files.', seq: deltas.at(-1)!.seq });
    expect(log.events()).toHaveLength(3);

    const [added] = feed({ type: 'message-added', runId, message: { id: 'm-2', role: 'assistant', text: 'Wrote two files.', ts: 2 } });
    expect(types(log.events())).toEqual(['run-started', 'phase-started', 'message-added']);
    expect(log.events().at(-1)).toBe(added);
  });

  it('shortens long strings in tool and approval arguments, leaving the live event whole', () => {
    const log = new RunEventLog();
    const feed = eventFeeder(log);
    const content = 'z'.repeat(1_000);
    const cut = `${'z'.repeat(400)}… (1000 chars)`;
    const [, live] = feed(
      started,
      { type: 'tool-started', runId, callId: 'c1', tool: 'write_file', args: { path: 'a.txt', content } },
      { type: 'approval-requested', runId, requestId: 'r1', tool: 'write_file', args: { path: 'a.txt', content }, reason: 'file changes need your approval', canAlwaysAllow: false, expiresAt: 1 },
      { type: 'approval-resolved', runId, requestId: 'r1', decision: 'edited', args: { path: 'a.txt', content } },
    );

    expect(log.events().slice(1).map((event) => ('args' in event ? event.args : null))).toEqual([
      { path: 'a.txt', content: cut },
      { path: 'a.txt', content: cut },
      { path: 'a.txt', content: cut },
    ]);
    expect(live).toMatchObject({ args: { content } });
  });

  it('stays within its limit, dropping the oldest detail events first and never the run-started', () => {
    const log = new RunEventLog(5);
    const feed = eventFeeder(log);
    feed(started, { type: 'phase-started', runId, phase: 'implement' }, tool(1), tool(2), { type: 'implement-progress', runId, current: 1, total: 1, label: 'Read' }, tool(3));

    expect(log.events().map((event) => (event.type === 'tool-started' ? event.callId : event.type))).toEqual(['run-started', 'phase-started', 'c2', 'implement-progress', 'c3']);

    feed({ type: 'phase-completed', runId, phase: 'implement', ok: true }, { type: 'phase-started', runId, phase: 'summary' }, { type: 'phase-completed', runId, phase: 'summary', ok: true }, { type: 'run-finished', finishedAt: 2_000, runId, status: 'done' });
    expect(types(log.events())).toEqual(['run-started', 'phase-completed', 'phase-started', 'phase-completed', 'run-finished']);
  });

  it('keeps only the latest of the events that restate a whole (the plan, the model status), so a long run does not grow with its square', () => {
    const log = new RunEventLog();
    const feed = eventFeeder(log);
    const plan = (done: number): UnsequencedEvent => ({
      type: 'plan-updated',
      runId,
      items: Array.from({ length: 300 }, (_, index) => ({ index, number: index + 1, label: `Item ${index + 1}`, description: 'write it', status: index < done ? 'done' : 'pending', rawLine: `- [ ] ${index + 1}. Item` })),
    });
    feed(started);
    for (let done = 0; done < 300; done += 1) feed(plan(done), { type: 'model-status', runId, phase: 'implement', state: 'waiting' }, tool(done));
    const events = log.events();
    expect(events.filter((event) => event.type === 'plan-updated')).toHaveLength(1);
    expect(events.filter((event) => event.type === 'model-status')).toHaveLength(1);
    const last = events.find((event) => event.type === 'plan-updated');
    expect(last?.type === 'plan-updated' && last.items.filter((item) => item.status === 'done')).toHaveLength(299);
    expect(events.filter((event) => event.type === 'tool-started')).toHaveLength(300);
  });

  it('puts the latest of each such event back in its place among the others, and drops the oldest detail first, whichever kind', () => {
    const log = new RunEventLog(6);
    const feed = eventFeeder(log);
    const status = (state: 'waiting' | 'answering'): UnsequencedEvent => ({ type: 'model-status', runId, phase: 'implement', state });
    feed(started, { type: 'context-window', runId, tokens: 8_192, source: 'settings' } as UnsequencedEvent, tool(1), status('waiting'), tool(2), status('answering'), tool(3));
    expect(log.events().map((event) => (event.type === 'tool-started' ? event.callId : event.type === 'model-status' ? event.state : event.type))).toEqual([
      'run-started',
      'context-window',
      'c1',
      'c2',
      'answering',
      'c3',
    ]);
    feed(tool(4));
    expect(log.events().map((event) => (event.type === 'tool-started' ? event.callId : event.type))).toEqual(['run-started', 'c1', 'c2', 'model-status', 'c3', 'c4']);
    const seqs = log.events().map((event) => event.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
  });

  it('replaces the latest of such an event without a pass over the run’s events', () => {
    const log = new RunEventLog();
    const feed = eventFeeder(log);
    feed(started);
    for (let n = 0; n < 3_000; n += 1) feed(tool(n));
    const filter = vi.spyOn(Array.prototype, 'filter');
    const findIndex = vi.spyOn(Array.prototype, 'findIndex');
    try {
      for (let n = 0; n < 500; n += 1) feed({ type: 'model-status', runId, phase: 'implement', state: n % 2 ? 'waiting' : 'answering' }, { type: 'run-usage', runId, messageId: 'm-1', steps: [] });
      const passes = [...filter.mock.contexts, ...findIndex.mock.contexts].filter((array) => Array.isArray(array) && array.length >= 3_000);
      expect(passes).toHaveLength(0);
    } finally {
      filter.mockRestore();
      findIndex.mockRestore();
    }
    expect(log.events().filter((event) => event.type === 'model-status')).toHaveLength(1);
    expect(log.events()).toHaveLength(3_003);
  });

  it('forgets everything on clear, including which run it followed', () => {
    const log = new RunEventLog();
    const feed = eventFeeder(log);
    feed(started, tool(1));
    log.clear();
    feed(tool(2));
    expect(log.events()).toEqual([]);
  });

  it.each([0, 1, 2.5])('refuses a limit of %d', (limit) => {
    expect(() => new RunEventLog(limit)).toThrow('A run event log needs room for at least 2 events.');
  });
});
