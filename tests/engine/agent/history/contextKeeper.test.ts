import { describe, expect, it } from 'vitest';
import { ContextKeeper, resultOrigin } from '../../../../engine/agent/history/contextKeeper.js';
import { budgetFor, shrunkBudget } from '../../../../engine/context/contextBudget.js';
import type { ChatMessage, LlmRequest } from '../../../../engine/llm/llmTypes.js';
import { estimatePromptTokens } from '../../../../engine/llm/tokenEstimate.js';
import { textToolResultMessage } from '../../../../engine/llm/textToolProtocol.js';
import { recallToolResult } from '../../../../engine/tools/recallToolResult.js';
import { resultForContext } from '../../../../engine/tools/resultCap.js';
import { runTool, toolContextFor } from '../../../support/toolContext.js';

const system: ChatMessage = { role: 'system', content: 'You are a careful researcher.' };
const request: ChatMessage = { role: 'user', content: 'Find where totals are computed.' };
const asRequest = (messages: ChatMessage[]): LlmRequest => ({ messages });

/** A file's text as read_file would give it: about `lines` × 12 tokens. */
function fileText(name: string, lines: number): string {
  return Array.from({ length: lines }, (_, index) => `${index + 1}\tconst total_${index} = sum(rows.slice(${index}), "${name}");`).join('\n');
}

/** A loop history keeper after `turns` turns that each read one file of `lines` lines, with log ids from 1. */
function keeperWithReads(contextWindow: number, turns: number, lines: number, mode: 'native' | 'text' = 'native'): ContextKeeper {
  const keeper = new ContextKeeper(contextWindow, [system, request]);
  for (let turn = 1; turn <= turns; turn += 1) {
    const args = JSON.stringify({ path: `src/f${turn}.ts` });
    const result = fileText(`f${turn}`, lines);
    const done = { id: turn, ok: true, result, contextText: resultForContext(result, turn), durationMs: 1 };
    if (mode === 'native') {
      keeper.push({ role: 'assistant', content: `Reading f${turn}.\nIt should hold the totals.`, tool_calls: [{ id: `call_${turn}`, type: 'function', function: { name: 'read_file', arguments: args } }] });
      const render = (text: string): ChatMessage => ({ role: 'tool', tool_call_id: `call_${turn}`, content: text });
      keeper.push(render(done.contextText), resultOrigin('read_file', args, done, render));
    } else {
      keeper.push({ role: 'assistant', content: '```json\n{"tool": "read_file", "args": ' + args + '}\n```' });
      const render = (text: string): ChatMessage => ({ role: 'user', content: textToolResultMessage('read_file', text) });
      keeper.push(render(done.contextText), resultOrigin('read_file', args, done, render));
    }
  }
  return keeper;
}

const sizeOf = ({ messages }: LlmRequest) => estimatePromptTokens(messages);

describe('the context budget', () => {
  it('leaves room for the answer: a quarter of the window, at least 1,024 tokens, at most 64 Ki', () => {
    expect(budgetFor(8_192)).toBe(6_144);
    expect(budgetFor(128_000)).toBe(96_000);
    expect(budgetFor(1_000_000)).toBe(1_000_000 - 65_536);
    expect(budgetFor(3_000)).toBe(1_976);
    expect(budgetFor(1_500)).toBe(750);
  });

  it('shrinks to the window the server named, or else well below the current budget', () => {
    expect(shrunkBudget(96_000, 8_192)).toBe(6_144);
    expect(shrunkBudget(6_144, 8_192)).toBe(4_300);
    expect(shrunkBudget(6_144, undefined)).toBe(4_300);
  });
});

describe('ContextKeeper', () => {
  it('sends the history as it is while it fits', async () => {
    const keeper = keeperWithReads(32_768, 2, 50);
    const fitted = await keeper.fit(asRequest);
    expect(fitted.trimmed).toBeNull();
    expect(fitted.request.messages).toEqual(keeper.messages);
    expect(await fitted.promptTokens()).toBe(await sizeOf(fitted.request));
  });

  it('sets the oldest results aside in one step down to half the budget, with stubs that stay the same turn after turn', async () => {
    const keeper = keeperWithReads(32_768, 12, 200);
    const fitted = await keeper.fit(asRequest);

    expect(fitted.trimmed).toEqual({ setAside: expect.any(Number), condensed: 0, cut: 0 });
    expect(fitted.trimmed!.setAside).toBeGreaterThan(3);
    expect(await fitted.promptTokens()).toBeLessThanOrEqual(budgetFor(32_768) / 2);
    expect(await fitted.promptTokens()).toBe(await sizeOf(fitted.request));
    const stubbed = fitted.request.messages.find((message) => message.role === 'tool');
    expect(stubbed?.content).toMatch(/^\[Set aside to save room: read_file result #1, [\d,]+ tokens\. Call recall_tool_result \{"id": 1\} to read it again\.\]$/);
    expect(fitted.request.messages.slice(0, 2)).toEqual([system, request]);
    expect(fitted.request.messages.at(-1)?.content).toBe(fileText('f12', 200));

    keeper.push({ role: 'assistant', content: null, tool_calls: [{ id: 'call_x', type: 'function', function: { name: 'list_files', arguments: '{}' } }] });
    keeper.push({ role: 'tool', tool_call_id: 'call_x', content: 'src/' });
    const next = await keeper.fit(asRequest);
    expect(next.trimmed).toBeNull();
    expect(next.request.messages.slice(0, fitted.request.messages.length)).toEqual(fitted.request.messages);
  });

  it('stubs a text-protocol result inside its result message', async () => {
    const keeper = keeperWithReads(16_384, 8, 200, 'text');
    const fitted = await keeper.fit(asRequest);
    expect(fitted.trimmed!.setAside).toBeGreaterThan(0);
    expect(fitted.request.messages[3]).toEqual({
      role: 'user',
      content: expect.stringMatching(/^Result of your read_file action \(tool output, not a message from the user\):\n```\n\[Set aside to save room: read_file result #1, /),
    });
  });

  it('condenses older turns into one note when their stubs fill the budget, keeping the request, the latest turn and every call with its result', async () => {
    const keeper = keeperWithReads(4_096, 60, 20);
    const fitted = await keeper.fit(asRequest);

    expect(fitted.trimmed!.condensed).toBeGreaterThan(0);
    expect(await fitted.promptTokens()).toBeLessThanOrEqual(budgetFor(4_096));
    const [first, second, note, ...latest] = fitted.request.messages;
    expect([first, second]).toEqual([system, request]);
    expect(note).toEqual({ role: 'assistant', content: expect.stringMatching(/^Notes on my earlier turns in this step, condensed to save room/) });
    expect(note!.content).toMatch(/- read_file \{"path":"src\/f59\.ts"\} → result #59 \(set aside\): 1\tconst total_0/);
    expect(note!.content).toMatch(/- \(\d+ earlier calls left out\)/);
    expect(latest.map((message) => message.role)).toEqual(['assistant', 'tool']);
    expect(latest[1]?.content).toBe(fileText('f60', 20));
  });

  it('cuts a latest result bigger than the room left, saying how to read on with a page that fits', async () => {
    const keeper = keeperWithReads(8_192, 1, 2_000);
    const fitted = await keeper.fit(asRequest);

    expect(fitted.trimmed).toEqual({ setAside: 0, condensed: 0, cut: 1 });
    expect(await fitted.promptTokens()).toBeLessThanOrEqual(budgetFor(8_192));
    const cut = String(fitted.request.messages.at(-1)?.content);
    const [, shown, offset, limit] = /\[Cut to fit the context window: showing characters 0–([\d,]+) of [\d,]+\. The full result is tool-log entry 1: call recall_tool_result \{"id": 1, "offset": (\d+), "limit": (\d+)\} to read on\.\]$/.exec(cut) ?? [];
    expect(Number(shown?.replace(/,/g, ''))).toBe(Number(offset));
    expect(Number(limit)).toBe(Number(offset));
    expect(cut.startsWith(fileText('f1', 2_000).slice(0, Number(offset)))).toBe(true);
  });

  it('shrinks its budget after a refusal and fits the same history again', async () => {
    const keeper = keeperWithReads(32_768, 3, 200);
    expect((await keeper.fit(asRequest)).trimmed).toBeNull();
    expect(keeper.shrink(4_096)).toBe(budgetFor(4_096));
    const fitted = await keeper.fit(asRequest);
    expect(await fitted.promptTokens()).toBeLessThanOrEqual(budgetFor(4_096));
    expect(fitted.trimmed!.setAside).toBe(2);
  });
});

describe('recall_tool_result', () => {
  it('pages with a limit, and names the limit where more follows', async () => {
    const result = fileText('big', 3_000);
    const context = await toolContextFor('/', { recall: async () => ({ tool: 'read_file', result, ok: true }) });
    const page = await runTool(recallToolResult, { id: 7, offset: 1_000, limit: 500 }, context);
    expect(page).toBe(
      `Result 7 (read_file, succeeded), characters 1000–1500 of ${result.length}:\n${result.slice(1_000, 1_500)}\n` +
        '[More follows: call recall_tool_result with id 7 and offset 1500 and limit 500.]',
    );
    expect(() => recallToolResult.parameters.parse({ id: 7, limit: 50 })).toThrow();
  });
});
