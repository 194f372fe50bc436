import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { UnsequencedEvent } from '../../../engine/contract/index.js';
import type { AgentLoopConfig } from '../../../engine/agent/agentLoopTypes.js';
import { runAgentLoop } from '../../../engine/agent/runAgentLoop.js';
import { defaultLoopLimits } from '../../../engine/agent/loopLimits.js';
import { ToolModeState } from '../../../engine/agent/toolMode.js';
import { createLlmClient } from '../../../engine/llm/openaiClient.js';
import { secretMask, type SecretMask } from '../../../engine/secrets/secretMask.js';
import { openToolLog } from '../../../engine/store/toolLog.js';
import { toolsForPhase } from '../../../engine/tools/toolCatalog.js';
import { defineTool, type Tool } from '../../../engine/tools/tool.js';
import { useFakeLlm } from '../../support/fakeLlm/useFakeLlm.js';
import { call, requestText, say, toolNames } from '../../support/rpiScript.js';
import { useTempFolders, writeTree } from '../../support/tempFolder.js';
import { toolContextFor } from '../../support/toolContext.js';

describe('runAgentLoop', () => {
  const tempFolder = useTempFolders('rpi-loop-');
  const llm = useFakeLlm();

  async function loop(overrides: Partial<AgentLoopConfig> = {}, { maskSecrets }: { maskSecrets?: SecretMask } = {}) {
    const root = await tempFolder();
    await writeTree(root, { 'a.txt': 'alpha\n' });
    const events: UnsequencedEvent[] = [];
    const { signal: _, ...toolContext } = await toolContextFor(root, maskSecrets ? { maskSecrets } : {});
    let calls = 0;
    const result = await runAgentLoop({
      phase: 'implement',
      runId: 'run-test',
      llm: createLlmClient({ baseUrl: llm().baseUrl, apiKey: null, model: 'fake-model' }),
      toolMode: new ToolModeState('native'),
      messages: [
        { role: 'system', content: 'You are a test.' },
        { role: 'user', content: 'Do the thing.' },
      ],
      tools: toolsForPhase('implement'),
      maxTurns: 10,
      limits: defaultLoopLimits,
      finalAnswerAtCap: false,
      toolContext,
      toolLog: await openToolLog(`${root}/.workbench`),
      emit: (event) => events.push(event),
      nextCallId: () => `c${(calls += 1)}`,
      contextWindow: 8000,
      signal: new AbortController().signal,
      ...overrides,
    });
    return { result, events, root };
  }

  it('returns the final text with the turns and tool calls it took, answering every call of a turn', async () => {
    llm().enqueue(
      { toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }, { name: 'get_file_info', arguments: { path: 'a.txt' } }] },
      say('All done.'),
    );
    const { result, events } = await loop();
    expect(result).toMatchObject({ ok: true, text: 'All done.', turns: 2, toolCalls: 2 });
    const second = llm().chatRequests()[1]!;
    expect(second.messages.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'tool', 'tool']);
    expect(requestText(second)).toContain('alpha');
    expect(events.map((event) => event.type).filter((type) => type !== 'model-status')).toEqual(['usage', 'tool-started', 'tool-finished', 'tool-started', 'tool-finished', 'usage']);
    expect(events.filter((event) => event.type === 'model-status').map((event) => event.type === 'model-status' && event.state)).toEqual(['waiting', 'answering', 'waiting', 'answering']);
    expect(events.find((event) => event.type === 'tool-started')).toMatchObject({ callId: 'c1', tool: 'read_file', args: { path: 'a.txt' } });
  });

  it("tells each turn's usage with its cached and reasoning tokens and its cost, and returns them", async () => {
    const usage = { promptTokens: 12_000, cachedTokens: 9_000, cacheWriteTokens: 1_500, completionTokens: 700, reasoningTokens: 200, costUsd: 0.0123 };
    llm().enqueue({ text: 'All done.', usage, usageShape: 'openrouter' });
    const { result, events } = await loop();
    expect(events.find((event) => event.type === 'usage')).toEqual({ type: 'usage', runId: 'run-test', phase: 'implement', ...usage, contextWindow: 8000, estimated: false, model: 'fake-model' });
    expect(result.usage).toEqual([usage]);
  });

  it('shows the rows a table tool handed back under its call, secrets hidden as in what the model reads; other tools show none', async () => {
    const sql = "SELECT * FROM (VALUES ('llm | chat', 'sk-abcdefgh12345'), ('[Showing 1 of 9,999 rows', 'none')) AS keys(service, key)";
    llm().enqueue({ toolCalls: [{ name: 'table_query', arguments: { sql } }, { name: 'read_file', arguments: { path: 'a.txt' } }] }, say('Done.'));
    const { events } = await loop({}, { maskSecrets: secretMask([{ name: 'API key', value: 'sk-abcdefgh12345' }]) });

    const finished = events.filter((event) => event.type === 'tool-finished');
    expect(finished[0]).toMatchObject({
      ok: true,
      table: { columns: ['service (text)', 'key (text)'], rows: [['llm | chat', '[hidden: API key]'], ['[Showing 1 of 9,999 rows', 'none']], more: 0 },
    });
    expect(finished[1]).toMatchObject({ ok: true });
    expect(finished[1]).not.toHaveProperty('table');
    const toolMessage = llm().chatRequests()[1]!.messages.find((message) => message.role === 'tool');
    expect(toolMessage?.content).toBe('2 rows, 2 columns\nservice (text) | key (text)\nllm \\| chat | [hidden: API key]\n[Showing 1 of 9,999 rows | none');
  });

  it('stops after three failed tool calls in a row: unknown tool, invalid JSON, a refused path', async () => {
    llm().enqueue(
      call('shell', { command: 'ls' }),
      call('read_file', '{"path": "a.txt"'),
      call('read_file', { path: '../outside.txt' }),
      say('never asked'),
    );
    const { result, events } = await loop();
    expect(result).toMatchObject({ ok: false, failure: 'tool-errors', turns: 3 });
    expect(!result.ok && result.error).toMatch(/3 tool calls in a row failed\. The last one: Refused path "\.\.\/outside\.txt"/);
    expect(events.filter((event) => event.type === 'tool-finished').map((event) => event.type === 'tool-finished' && event.ok)).toEqual([false, false, false]);
    expect(llm().chatRequests()).toHaveLength(3);
    expect(requestText(llm().chatRequests()[2]!)).toContain('there is no tool named \\"shell\\"');
  });

  it('stops after five failed calls in all, even with successes between them', async () => {
    const bad = call('read_file', { path: 'missing.txt' });
    const good = call('read_file', { path: 'a.txt' });
    llm().enqueue(bad, bad, good, bad, bad, good, bad, say('never asked'));
    const { result } = await loop();
    expect(result).toMatchObject({ ok: false, failure: 'tool-errors', turns: 7 });
    expect(!result.ok && result.error).toMatch(/5 tool calls failed in this step/);
  });

  it('offers its own tools in catalog order, then the tool source’s by name, however the source orders them turn by turn', async () => {
    const extra = (name: string): Tool => defineTool({ name, description: `The ${name} tool.`, parameters: z.object({}), mutates: false, run: async () => ({ text: name }) });
    const offers = [[extra('mcp__docs__search'), extra('mcp__docs__fetch')], [extra('mcp__docs__fetch'), extra('mcp__docs__search')]];
    llm().enqueue(call('mcp__docs__fetch', {}), say('Done.'));
    const { result } = await loop({ extraTools: { toolsFor: async () => offers.shift() ?? [] } });
    expect(result).toMatchObject({ ok: true, toolCalls: 1 });
    const builtIn = toolsForPhase('implement').map((tool) => tool.name);
    const [first, second] = llm().chatRequests();
    expect(toolNames(first)).toEqual([...builtIn, 'mcp__docs__fetch', 'mcp__docs__search']);
    expect(JSON.stringify(second!.tools)).toBe(JSON.stringify(first!.tools));
  });

  it('fails at the turn cap, or asks once more without tools for a final answer when the phase wants one', async () => {
    llm().enqueue(call('read_file', { path: 'a.txt' }), call('read_file', { path: 'a.txt' }));
    const capped = await loop({ maxTurns: 2 });
    expect(capped.result).toMatchObject({ ok: false, failure: 'turn-cap', turns: 2 });

    llm().enqueue(call('read_file', { path: 'a.txt' }), call('read_file', { path: 'a.txt' }), say('Findings so far.'));
    const answered = await loop({ maxTurns: 2, finalAnswerAtCap: true });
    expect(answered.result).toMatchObject({ ok: true, text: 'Findings so far.', turns: 3 });
    const last = llm().chatRequests().at(-1)!;
    expect(last.tools).toBeUndefined();
    expect(requestText(last)).toContain('You have used all 2 turns');
  });

  it('stops at its wall-clock limit, also inside a running command', async () => {
    llm().enqueue(call('run_command', { command: 'sleep 30' }), say('never asked'));
    const { result, events } = await loop({ limits: { ...defaultLoopLimits, timeoutMs: 400 } });
    expect(result).toMatchObject({ ok: false, failure: 'timeout' });
    expect(!result.ok && result.error).toMatch(/time limit/);
    expect(events.find((event) => event.type === 'tool-finished')).toMatchObject({ summary: expect.stringMatching(/cancelled/) });
  });

  it('ends as cancelled when its signal aborts while the model is streaming', async () => {
    const controller = new AbortController();
    llm().enqueue(say('a long answer that streams slowly', { delayMs: 200 }));
    const deltas: string[] = [];
    const { result } = await loop({
      signal: controller.signal,
      onTextDelta: (text) => {
        deltas.push(text);
        controller.abort();
      },
    });
    expect(result).toMatchObject({ ok: false, failure: 'cancelled', turns: 1 });
    expect(deltas).toHaveLength(1);
  });

  it('streams text only when asked to', async () => {
    llm().enqueue(say('streamed words here'));
    const deltas: string[] = [];
    const { result } = await loop({ tools: [], onTextDelta: (text) => deltas.push(text) });
    expect(result).toMatchObject({ ok: true, text: 'streamed words here' });
    expect(deltas.join('')).toBe('streamed words here');
    expect(deltas.length).toBeGreaterThan(1);
  });
});
