import type { ChatCompletionCreateParams, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { describe, expect, it } from 'vitest';
import type { EventOf, UnsequencedEvent } from '../../../engine/contract/index.js';
import { budgetFor } from '../../../engine/context/contextBudget.js';
import type { RecordedRequest, ScriptedTurn } from '../../support/fakeLlm/index.js';
import { useFakeLlm, useFakeLlmStarter } from '../../support/fakeLlm/useFakeLlm.js';
import { call, say } from '../../support/rpiScript.js';
import { useTempFolders } from '../../support/tempFolder.js';
import { filePath, readTurns, requestTokens, runResearch, writeManyFiles } from '../../support/readManyFiles.js';
import { refusedAsTooLong } from '../../support/contextRefusal.js';

const trims = (events: readonly UnsequencedEvent[]) => events.filter((event): event is EventOf<'context-trimmed'> => event.type === 'context-trimmed');

/** Every assistant tool call is answered by a tool message with its id, and every tool message answers one. */
function expectCallsPaired(messages: readonly ChatCompletionMessageParam[]): void {
  const open = new Set<string>();
  for (const message of messages) {
    if (message.role === 'assistant') {
      expect(open.size, 'a tool call was left without its result').toBe(0);
      for (const toolCall of message.tool_calls ?? []) open.add(toolCall.id);
    } else if (message.role === 'tool') {
      expect(open.delete(message.tool_call_id), `tool message ${message.tool_call_id} answers no call`).toBe(true);
    }
  }
  expect(open.size).toBe(0);
}

function lastToolText(body: unknown): string {
  const message = (body as ChatCompletionCreateParams).messages.at(-1);
  return message?.role === 'tool' && typeof message.content === 'string' ? message.content : '';
}

describe('the agent loop within the context budget', () => {
  const tempFolder = useTempFolders('rpi-context-');
  const llm = useFakeLlm();
  const startLlm = useFakeLlmStarter();

  async function project() {
    const root = await tempFolder();
    await writeManyFiles(root);
    return root;
  }

  it.each([8_192, 16_384, 32_768, 128_000])('reads 40 files of 60 KB in a %i-token window: every request fits its budget', async (contextWindow) => {
    const root = await project();
    llm().enqueue(...readTurns(), say('Findings: every module combines the alpha table.'));

    const { result, events } = await runResearch({ root, baseUrl: llm().baseUrl, contextWindow });

    expect(result).toMatchObject({ ok: true, text: 'Findings: every module combines the alpha table.', toolCalls: 40 });
    const requests = llm().chatRequests();
    const sizes = await Promise.all(requests.map(requestTokens));
    const budget = budgetFor(contextWindow);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(budget);
    expect(Math.max(...sizes) / contextWindow).toBeLessThanOrEqual(0.75);
    const [system, user] = requests[0]!.messages;
    for (const request of requests) {
      // The system prompt and the request are never dropped, and the history stays valid for the API.
      expect(request.messages.slice(0, 2)).toEqual([system, user]);
      expectCallsPaired(request.messages);
    }
    const trimmed = trims(events);
    expect(trimmed.length).toBeGreaterThan(0);
    expect(trimmed.every((event) => event.budget === budget && event.promptTokens <= budget && event.contextWindow === contextWindow)).toBe(true);
    const last = JSON.stringify(requests.at(-1)!.messages);
    expect(last).toMatch(/\[Set aside to save room: read_file result #\d+, [\d,]+ tokens\. Call recall_tool_result \{\\"id\\": \d+\} to read it again\.\]/);
    if (contextWindow >= 32_768) {
      // Nothing silently dropped: every result is still there, or named by its id in a stub or the note of condensed turns.
      const missing = Array.from({ length: 40 }, (_, index) => index + 1).filter((id) => !last.includes(`result #${id}`) && !last.includes(`${filePath(id - 1)}: lines 1–`));
      expect(missing).toEqual([]);
    }
  });

  it('sets results aside in large steps, so most requests repeat the one before as their prefix', async () => {
    const root = await project();
    llm().enqueue(...readTurns(), say('Findings.'));

    const { events } = await runResearch({ root, baseUrl: llm().baseUrl, contextWindow: 128_000 });

    const trimmed = trims(events);
    // 40 reads of about 5,000 tokens each, into a budget of 96,000: a few large steps, not one per turn.
    expect(trimmed.length).toBeLessThanOrEqual(4);
    expect(trimmed.every((event) => event.setAside >= 5 && event.condensed === 0 && event.cut === 0)).toBe(true);
    const requests = llm().chatRequests();
    const extended = requests.slice(1).filter((request, index) => {
      const before = requests[index]!.messages;
      return JSON.stringify(request.messages.slice(0, before.length)) === JSON.stringify(before);
    });
    expect(extended.length).toBeGreaterThanOrEqual(requests.length - 1 - trimmed.length);
  });

  it('reads a set-aside result back whole through recall_tool_result, a page that fits at a time', async () => {
    const root = await project();
    const reads = readTurns();
    let recalledId = 0;
    const pages: string[] = [];
    const fake = await startLlm({
      script: (request: RecordedRequest, index: number): ScriptedTurn => {
        if (index < reads.length) return reads[index]!;
        const body = request.body as ChatCompletionCreateParams;
        if (recalledId === 0) {
          recalledId = Number(/read_file result #(\d+)/.exec(JSON.stringify(body.messages))?.[1]);
          return call('recall_tool_result', { id: recalledId });
        }
        const page = lastToolText(body);
        pages.push(page);
        const next = /"offset": (\d+), "limit": (\d+)\}/.exec(page) ?? /with id \d+ and offset (\d+)(?: and limit (\d+))?\.\]$/.exec(page);
        if (!next) return say('Read it all.');
        return call('recall_tool_result', { id: recalledId, offset: Number(next[1]), ...(next[2] ? { limit: Number(next[2]) } : {}) });
      },
    });

    const { result, toolLog } = await runResearch({ root, baseUrl: fake.baseUrl, contextWindow: 16_384 });

    expect(result).toMatchObject({ ok: true, text: 'Read it all.' });
    const whole = (await toolLog.recall(recalledId))!.result;
    expect(whole.length).toBeGreaterThan(60_000);
    const bodies = pages.map((page) => page.slice(page.indexOf('\n') + 1).replace(/\n\[(?:Cut to fit the context window|More follows): [^\n]*\]$/, ''));
    expect(bodies.join('')).toBe(whole);
    expect(pages.length).toBeGreaterThan(3);
    const budget = budgetFor(16_384);
    for (const request of fake.chatRequests()) expect(await requestTokens(request)).toBeLessThanOrEqual(budget);
  });

  it('asks the same turn once more within a smaller budget when the server says the request is too long, running no tool twice', async () => {
    const root = await project();
    llm().enqueue(call('read_file', { path: filePath(0) }), call('read_file', { path: filePath(1) }), refusedAsTooLong(8_192), say('Findings.'));

    const { result, events, toolLog } = await runResearch({ root, baseUrl: llm().baseUrl, contextWindow: 32_768 });

    expect(result).toMatchObject({ ok: true, text: 'Findings.', turns: 3, toolCalls: 2 });
    const [, , refused, retried] = llm().chatRequests();
    expect(retried).toBeDefined();
    expect(events.filter((event) => event.type === 'tool-started')).toHaveLength(2);
    expect(await toolLog.recall(3)).toBeNull();
    expect(await requestTokens(refused!)).toBeGreaterThan(budgetFor(8_192));
    expect(await requestTokens(retried!)).toBeLessThanOrEqual(budgetFor(8_192));
    expect(trims(events)).toEqual([expect.objectContaining({ afterRefusal: true, budget: budgetFor(8_192), setAside: 1, cut: 1 })]);
  });

  it('fails as a model error naming the window and what to change when the server refuses the retry too', async () => {
    const root = await project();
    llm().enqueue(readTurns()[0]!, refusedAsTooLong(8_192), refusedAsTooLong(8_192));

    const { result } = await runResearch({ root, baseUrl: llm().baseUrl, contextWindow: 32_768 });

    expect(result).toMatchObject({ ok: false, failure: 'model', llmError: { kind: 'context-exceeded', contextLimit: 8_192 } });
    expect(llm().chatRequests()).toHaveLength(3);
    const error = result.ok ? '' : result.error;
    expect(error).toMatch(/ context window of 32,768 tokens \(the server named 8,192\): set the context window in Settings/);
    expect(error.startsWith(`The model server at ${llm().baseUrl} refused the request as too long twice (HTTP 400), the second time cut to about `)).toBe(true);
    expect(error.split('. ')).toHaveLength(1);
  });

  it('names the server and says the refusal came in the stream when the retry is refused there', async () => {
    const root = await project();
    const tooLong = "This model's maximum context length is 8192 tokens. However, your messages resulted in 10000 tokens.";
    llm().enqueue(readTurns()[0]!, refusedAsTooLong(8_192), { fault: { type: 'error-frame', shape: 'openai', message: tooLong, code: 'context_length_exceeded', afterChunks: 0 } });

    const { result } = await runResearch({ root, baseUrl: llm().baseUrl, contextWindow: 32_768 });

    expect(result).toMatchObject({ ok: false, failure: 'model', llmError: { kind: 'context-exceeded', contextLimit: 8_192 } });
    const error = result.ok ? '' : result.error;
    expect(error.startsWith(`The model server at ${llm().baseUrl} refused the request as too long twice (an error in its stream), the second time cut`)).toBe(true);
  });
});
