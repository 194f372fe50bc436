import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import { describe, expect, it } from 'vitest';
import { useFakeLlmStarter } from '../support/fakeLlm/useFakeLlm.js';
import { clientFor, collect } from './fakeLlmHelpers.js';

/** About `words` tokens of text that differ from any other call's from the first word on. */
const text = (tag: string, words: number) => Array.from({ length: words }, (_, index) => `${tag}${index % 50}`).join(' ');
const tools: ChatCompletionTool[] = [{ type: 'function', function: { name: 'read_file', parameters: { type: 'object', properties: { path: { type: 'string' } } } } }];
const system = (words: number): ChatCompletionMessageParam => ({ role: 'system', content: text('rule', words) });
const user = (content: string): ChatCompletionMessageParam => ({ role: 'user', content });

describe('fake LLM prompt cache', () => {
  const start = useFakeLlmStarter();

  it('reports a repeated prefix of 1,024 tokens or more as cached, in steps of 128, in the stream and in a plain answer', async () => {
    const server = await start({ script: [{ text: 'one' }, { text: 'two' }, { text: 'three' }], promptCache: true });
    const client = clientFor(server);
    const streamed = await collect(await client.chat.completions.create({ model: 'fake-model', messages: [system(3000), user('first')], tools, stream: true, stream_options: { include_usage: true } }));
    const second = await collect(await client.chat.completions.create({ model: 'fake-model', messages: [system(3000), user('second')], tools, stream: true, stream_options: { include_usage: true } }));
    const plain = await client.chat.completions.create({ model: 'fake-model', messages: [system(3000), user('second'), { role: 'assistant', content: 'two' }, user('more')], tools });

    const [first, again, third] = server.promptCache!.reports;
    expect(streamed.at(-1)?.usage).toEqual({ prompt_tokens: first!.promptTokens, completion_tokens: 1, total_tokens: first!.promptTokens + 1, prompt_tokens_details: { cached_tokens: 0 } });
    expect(first!.promptTokens).toBeGreaterThan(3000);
    // Everything but the last user message is shared, counted down to a whole number of 128-token blocks.
    expect(again!.cachedTokens % 128).toBe(0);
    expect(again!.cachedTokens).toBeGreaterThan(again!.promptTokens - 128 - 20);
    expect(second.at(-1)?.usage?.prompt_tokens_details?.cached_tokens).toBe(again!.cachedTokens);
    expect(plain.usage?.prompt_tokens_details?.cached_tokens).toBe(third!.cachedTokens);
    expect(third!.cachedTokens).toBeGreaterThanOrEqual(again!.cachedTokens);
  });

  it('caches nothing under 1,024 shared tokens, after other tools, or after ten minutes without a request that had the prefix', async () => {
    let now = 1_000_000;
    const server = await start({ script: Array.from({ length: 6 }, () => ({ text: 'ok' })), promptCache: { now: () => now } });
    const client = clientFor(server);
    const ask = (messages: ChatCompletionMessageParam[], withTools = tools) => client.chat.completions.create({ model: 'fake-model', messages, tools: withTools });
    await ask([system(300), user(text('tail', 2000))]);
    await ask([system(300), user(text('other', 2000))]);
    await ask([system(3000), user('a')]);
    await ask([system(3000), user('b')], [{ type: 'function', function: { name: 'list_files', parameters: { type: 'object', properties: {} } } }]);
    now += 10 * 60_000 + 1;
    await ask([system(3000), user('c')]);
    now += 10 * 60_000;
    await ask([system(3000), user('d')]);

    expect(server.promptCache!.reports.map((report) => report.cachedTokens > 0)).toEqual([false, false, false, false, false, true]);
  });

  it('matches against any earlier request, not only the last one', async () => {
    const server = await start({ script: Array.from({ length: 3 }, () => ({ text: 'ok' })), promptCache: true });
    const client = clientFor(server);
    const ask = (messages: ChatCompletionMessageParam[]) => client.chat.completions.create({ model: 'fake-model', messages, tools });
    await ask([system(2000), user('research')]);
    await ask([{ role: 'system', content: text('plan', 2000) }, user('plan')]);
    await ask([system(2000), user('research again')]);

    const [, unrelated, back] = server.promptCache!.reports;
    expect(unrelated!.cachedTokens).toBe(0);
    expect(back!.cachedTokens).toBeGreaterThanOrEqual(1024);
  });
});
