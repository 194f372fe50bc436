import { describe, expect, it } from 'vitest';
import { workbenchEventSchema, type EventOf, type WorkbenchEventType } from '../../../engine/contract/index.js';

const item = { index: 0, number: 1, label: 'Parse statement', description: 'read bank.csv', status: 'pending', rawLine: '- [ ] 1. Parse statement — read bank.csv' } as const;
const message = { id: 'msg-1', role: 'user', text: 'Categorise my bank statement', ts: 1_700_000_000_000 } as const;

/** One valid example per event type; the type forces an entry for every member of the union. */
const examples: { [T in WorkbenchEventType]: EventOf<T> } = {
  'run-started': { type: 'run-started', seq: 1, runId: 'run-1', messageId: 'msg-1', startedAt: 1_000 },
  'phase-started': { type: 'phase-started', seq: 2, runId: 'run-1', phase: 'research' },
  'phase-completed': { type: 'phase-completed', seq: 3, runId: 'run-1', phase: 'plan', ok: false, error: 'turn limit reached' },
  'implement-progress': { type: 'implement-progress', seq: 4, runId: 'run-1', current: 3, total: 12, label: 'Write workbook' },
  'plan-updated': { type: 'plan-updated', seq: 5, runId: 'run-1', items: [item, { ...item, index: 1, status: 'failed', failure: 'x' }] },
  'plan-ready': { type: 'plan-ready', seq: 6, runId: 'run-1', items: [item], riskyItems: [{ index: 0, reason: 'it deletes files' }], planText: '# Execution Plan\n' },
  'tool-started': { type: 'tool-started', seq: 7, runId: 'run-1', callId: 'call-1', tool: 'read_file', args: { path: 'bank.csv' } },
  'tool-finished': { type: 'tool-finished', seq: 8, runId: 'run-1', callId: 'call-1', ok: true, summary: '120 lines', durationMs: 4 },
  'check-finished': { type: 'check-finished', seq: 8, runId: 'run-1', index: 0, label: 'Parse statement', round: 1, command: 'npm test', source: 'plan', outcome: 'failed', exitCode: 1 },
  'approval-requested': {
    type: 'approval-requested',
    seq: 9,
    runId: 'run-1',
    requestId: 'req-1',
    tool: 'write_file',
    args: { path: 'out.xlsx' },
    path: '/home/me/project/out.xlsx',
    reason: 'file changes need your approval',
    canAlwaysAllow: false,
    expiresAt: 1_700_000_060_000,
  },
  'approval-resolved': { type: 'approval-resolved', seq: 10, runId: 'run-1', requestId: 'req-1', decision: 'expired' },
  'question-asked': {
    type: 'question-asked',
    seq: 10,
    runId: 'run-1',
    requestId: 'question-1',
    phase: 'research',
    question: 'One sheet or one per month?',
    choices: ['one', 'per month'],
    default: 'one',
    expiresAt: 1_700_000_060_000,
  },
  'question-answered': { type: 'question-answered', seq: 11, runId: 'run-1', requestId: 'question-1', outcome: 'answered', answer: 'per month' },
  'summary-delta': { type: 'summary-delta', seq: 11, runId: 'run-1', text: 'I categorised ' },
  'message-added': { type: 'message-added', seq: 12, runId: 'run-1', message },
  'conversation-reset': { type: 'conversation-reset', seq: 13, runId: null, messages: [message] },
  usage: {
    type: 'usage',
    seq: 14,
    runId: 'run-1',
    phase: 'summary',
    promptTokens: 900,
    cachedTokens: 768,
    cacheWriteTokens: 0,
    completionTokens: 80,
    reasoningTokens: 12,
    costUsd: 0.00031,
    contextWindow: 128_000,
  },
  'run-usage': {
    type: 'run-usage',
    seq: 16,
    runId: 'run-1',
    messageId: 'msg-1',
    steps: [
      { phase: 'research', promptTokens: 900, cachedTokens: 768, cacheWriteTokens: 0, completionTokens: 80, reasoningTokens: 12, calls: 1, costUsd: 0.00031, unpricedCalls: 0, estimated: false },
      { phase: 'implement', item: { index: 0, label: 'Parse' }, promptTokens: 1_200, cachedTokens: 0, cacheWriteTokens: 0, completionTokens: 40, reasoningTokens: 0, calls: 2, costUsd: null, unpricedCalls: 2, estimated: true },
    ],
  },
  warning: { type: 'warning', seq: 15, runId: null, message: 'conversation.jsonl: skipped corrupt line 2' },
  'context-trimmed': { type: 'context-trimmed', seq: 17, runId: 'run-1', phase: 'research', setAside: 12, condensed: 0, cut: 1, promptTokens: 5_900, budget: 6_144, contextWindow: 8_192 },
  'instructions-read': { type: 'instructions-read', seq: 20, runId: 'run-1', phase: 'implement', files: ['AGENTS.md', 'src/api/AGENTS.md'] },
  'context-items-read': { type: 'context-items-read', seq: 20, runId: 'run-1', phase: 'research', items: ['src/app.ts', 'docs/', 'note 1'] },
  'context-window': { type: 'context-window', seq: 19, runId: 'run-1', tokens: 32_768, source: 'server', detail: 'vLLM max_model_len' },
  'model-status': { type: 'model-status', seq: 18, runId: 'run-1', phase: 'plan', state: 'retrying', attempt: 2, attempts: 5, delayMs: 2_000, reason: 'HTTP 500' },
  'changes-updated': { type: 'changes-updated', seq: 20, runId: 'run-1', messageId: 'msg-1', files: 3, added: 12, removed: 4 },
  'mcp-status': {
    type: 'mcp-status',
    seq: 21,
    runId: null,
    status: {
      name: 'everything',
      state: 'ready',
      tools: [{ name: 'echo', modelName: 'mcp__everything__echo', description: 'Echoes back the input string', readOnly: true, phases: ['research', 'implement'], alwaysAllowed: false }],
      serverInfo: 'Everything Reference Server 2.0.0',
      updatedAt: 1_700_000_000_000,
    },
  },
  'run-finished': { type: 'run-finished', finishedAt: 2_000, seq: 16, runId: 'run-1', status: 'failed', error: 'model unreachable' },
};

/** The event types as the schema itself knows them, so a type added to the union without an example fails here. */
const schemaTypes = workbenchEventSchema.options.map((option) => option.shape.type.value);

describe('workbenchEventSchema', () => {
  it('has an example for exactly the event types in the union', () => {
    expect(Object.keys(examples).sort()).toEqual([...schemaTypes].sort());
  });

  it.each(schemaTypes)('accepts a %s event', (type) => {
    const example = examples[type];
    expect(example, `no example for ${type}`).toBeDefined();
    expect(workbenchEventSchema.parse(example)).toEqual(example);
  });

  it('accepts the events the DESIGN lists as required', () => {
    const required = [
      'run-started',
      'phase-started',
      'phase-completed',
      'implement-progress',
      'plan-updated',
      'tool-started',
      'tool-finished',
      'approval-requested',
      'approval-resolved',
      'summary-delta',
      'message-added',
      'usage',
      'run-finished',
    ];
    expect(schemaTypes).toEqual(expect.arrayContaining(required));
  });

  it('refuses an event without seq', () => {
    const { seq: _seq, ...withoutSeq } = examples['run-started'];
    expect(workbenchEventSchema.safeParse(withoutSeq).success).toBe(false);
  });

  it.each([0, -1, 1.5, '3'])('refuses the seq %j', (seq) => {
    expect(workbenchEventSchema.safeParse({ ...examples['summary-delta'], seq }).success).toBe(false);
  });

  it('refuses an event without runId (null is the way to say "outside a run")', () => {
    const { runId: _runId, ...withoutRunId } = examples.warning;
    expect(workbenchEventSchema.safeParse(withoutRunId).success).toBe(false);
  });

  it('refuses an unknown type', () => {
    expect(workbenchEventSchema.safeParse({ type: 'run-exploded', seq: 1, runId: null }).success).toBe(false);
    expect(workbenchEventSchema.safeParse({ ...examples['run-started'], type: 'Run-Started' }).success).toBe(false);
  });

  it('refuses an event whose fields do not match its type', () => {
    expect(workbenchEventSchema.safeParse({ ...examples['phase-started'], phase: 'deploy' }).success).toBe(false);
    expect(workbenchEventSchema.safeParse({ ...examples['run-finished'], status: 'ok' }).success).toBe(false);
    expect(workbenchEventSchema.safeParse({ ...examples.usage, promptTokens: -1 }).success).toBe(false);
  });
});
