import type * as O200k from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it, vi } from 'vitest';
import { ContextKeeper } from '../../../../engine/agent/history/contextKeeper.js';
import type { ChatMessage, LlmRequest } from '../../../../engine/llm/llmTypes.js';
import { estimatePromptTokens, promptTokensAtMost } from '../../../../engine/llm/tokenEstimate.js';

/** The characters the real o200k tokenizer was given to count, in this file's tests. */
const tokenized = vi.hoisted(() => ({ chars: 0 }));
vi.mock('gpt-tokenizer/encoding/o200k_base', async (importOriginal) => {
  const real = await importOriginal<typeof O200k>();
  return {
    ...real,
    countTokens: (...args: Parameters<typeof real.countTokens>) => {
      tokenized.chars += String(args[0]).length;
      return real.countTokens(...args);
    },
  };
});

const asRequest = (messages: ChatMessage[]): LlmRequest => ({ messages });

function toolTurn(turn: number, result: string): [ChatMessage, ChatMessage] {
  return [
    { role: 'assistant', content: `Reading f${turn}.`, tool_calls: [{ id: `call_${turn}`, type: 'function', function: { name: 'read_file', arguments: `{"path":"src/f${turn}.ts"}` } }] },
    { role: 'tool', tool_call_id: `call_${turn}`, content: result },
  ];
}

describe('fitting a request counts tokens only where the answer needs them', () => {
  it('sends a request that fits by its byte bound without tokenizing its new messages, and counts it when asked', async () => {
    const keeper = new ContextKeeper(128_000, [
      { role: 'system', content: 'You are a careful implementer.' },
      { role: 'user', content: 'Migrate the modules.' },
    ]);
    const result = Array.from({ length: 800 }, (_, line) => `${line + 1}\texport const total_${line} = rows.reduce((sum, row) => sum + row.amount, 0);`).join('\n');
    for (const message of toolTurn(1, result)) keeper.push(message);
    const before = tokenized.chars;
    const fitted = await keeper.fit(asRequest);
    expect(fitted.trimmed).toBeNull();
    expect(tokenized.chars - before).toBeLessThan(result.length / 10);
    expect(await fitted.promptTokens()).toBe(await estimatePromptTokens(fitted.request.messages));
    expect(tokenized.chars - before).toBeGreaterThan(result.length);
  });

  it('counts exactly when the bound says the request may not fit, and trims by the exact count only', async () => {
    const keeper = new ContextKeeper(4_096, [{ role: 'system', content: 'You are a careful implementer.' }]);
    // Short common words: about four bytes a token, so these turns pass the budget by bytes, not by tokens.
    for (let turn = 1; turn <= 2; turn += 1) for (const message of toolTurn(turn, 'total = sum(rows);\n'.repeat(80))) keeper.push(message);
    expect(await promptTokensAtMost(keeper.messages)).toBeGreaterThan(keeper.budget);
    const fits = await keeper.fit(asRequest);
    expect(fits.trimmed).toBeNull();
    expect(await fits.promptTokens()).toBeLessThanOrEqual(keeper.budget);

    for (let turn = 3; turn <= 8; turn += 1) for (const message of toolTurn(turn, 'total = sum(rows);\n'.repeat(80))) keeper.push(message);
    const trimmed = await keeper.fit(asRequest);
    expect(trimmed.trimmed).not.toBeNull();
    expect(await trimmed.promptTokens()).toBeLessThanOrEqual(keeper.budget);
    expect(await trimmed.promptTokens()).toBe(await estimatePromptTokens(trimmed.request.messages));
  });

  it('never bounds a message below its count: any text, tool calls alone, names, ids', async () => {
    const texts = ['plain ASCII words and code();', '数据库连接池已经耗尽，请稍后重试', '🙂🙃🧪🚀 emoji-only', 'mixé àccents — “quotes” …', 'a'.repeat(5_000), ' \n\t '.repeat(300), '<|endoftext|> looks special', 'x'];
    for (const text of texts) {
      const messages: ChatMessage[] = [
        { role: 'system', content: text },
        { role: 'user', content: text, name: `dev_${text.slice(0, 8)}` } as ChatMessage,
        { role: 'assistant', content: text, tool_calls: [{ id: 'call_é', type: 'function', function: { name: 'write_file', arguments: JSON.stringify({ path: 'ü.ts', content: text }) } }] },
        // A call with no text of its own: its arguments are all there is to count.
        { role: 'assistant', content: '', tool_calls: [{ id: 'c', type: 'function', function: { name: 'edit_file', arguments: JSON.stringify({ path: 'src/a.ts', old: text, new: `${text}${text}` }) } }] },
        { role: 'tool', tool_call_id: `call_${text.slice(0, 12)}`, content: text },
      ];
      for (const message of messages) {
        expect(await promptTokensAtMost([message]), `${message.role}: ${text.slice(0, 20)}`).toBeGreaterThanOrEqual(await estimatePromptTokens([message]));
      }
    }
  });
});
