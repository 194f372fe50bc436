import { describe, expect, it, vi } from 'vitest';
import type * as O200k from 'gpt-tokenizer/encoding/o200k_base';
import { ContextKeeper } from '../../../engine/agent/history/contextKeeper.js';
import type { ChatMessage, LlmRequest } from '../../../engine/llm/llmTypes.js';
import { estimatePromptTokens, promptTokensAtMost } from '../../../engine/llm/tokenEstimate.js';
import { markLast } from '../../../engine/llm/cacheHints/cacheBreakpoints.js';
import { toolDefinitions, toolsForPhase } from '../../../engine/tools/toolCatalog.js';

/** Characters handed to the tokenizer, counted through its one entry point. */
const encoded = vi.hoisted(() => ({ chars: 0 }));
vi.mock('gpt-tokenizer/encoding/o200k_base', async (importOriginal) => {
  const real = await importOriginal<typeof O200k>();
  return {
    ...real,
    countTokens: (...args: Parameters<typeof real.countTokens>) => {
      encoded.chars += typeof args[0] === 'string' ? args[0].length : 0;
      return real.countTokens(...args);
    },
  };
});

async function charsEncodedBy(estimate: () => Promise<unknown>): Promise<number> {
  const before = encoded.chars;
  await estimate();
  return encoded.chars - before;
}

describe('estimatePromptTokens, turn after turn of one history', () => {
  it('encodes only what is new in the request: each earlier message and the same tool list are counted once', async () => {
    const tools = toolDefinitions(toolsForPhase('implement'));
    const history: ChatMessage[] = [
      { role: 'system', content: 'You carry out one item of the plan. '.repeat(50) },
      { role: 'user', content: 'Item 1: write items/item-1.txt. '.repeat(20) },
    ];
    const first = await charsEncodedBy(() => estimatePromptTokens(history, tools));
    expect(first).toBeGreaterThan(JSON.stringify(tools).length);

    for (let turn = 1; turn <= 10; turn += 1) {
      const result = `line ${turn} of a file the tool read\n`.repeat(40);
      history.push(
        { role: 'assistant', content: null, tool_calls: [{ id: `call_${turn}`, type: 'function', function: { name: 'read_file', arguments: `{"path":"src/file-${turn}.ts"}` } }] },
        { role: 'tool', tool_call_id: `call_${turn}`, content: result },
      );
      const chars = await charsEncodedBy(() => estimatePromptTokens(history, tools));
      // The new assistant call and tool result (with their roles, name, arguments and call ids), nothing earlier.
      expect(chars).toBeLessThan(result.length + 120);
    }
  });

  it('counts a message anew when it is a new one with the same text, and gives the same totals as counting afresh', async () => {
    const make = (): ChatMessage[] => [
      { role: 'system', content: 'Plan the work.' },
      { role: 'user', content: 'Add a greeting to the README.' },
    ];
    const once = await estimatePromptTokens(make());
    expect(await charsEncodedBy(async () => expect(await estimatePromptTokens(make())).toBe(once))).toBeGreaterThan(0);
  });

  it('does not encode the latest result again when the turn sent it as a marked copy (the cache breakpoint)', async () => {
    const history: ChatMessage[] = [
      { role: 'system', content: 'You research the project. '.repeat(40) },
      { role: 'user', content: 'Find where the totals are computed.' },
    ];
    await estimatePromptTokens(markLast(history));
    for (let turn = 1; turn <= 5; turn += 1) {
      const result = `match ${turn}: src/totals-${turn}.ts computes a sum\n`.repeat(30);
      history.push(
        { role: 'assistant', content: null, tool_calls: [{ id: `call_${turn}`, type: 'function', function: { name: 'search_files', arguments: `{"pattern":"total ${turn}"}` } }] },
        { role: 'tool', tool_call_id: `call_${turn}`, content: result },
      );
      // Each turn's request ends with a marked copy of its last message, the history keeps the original.
      const chars = await charsEncodedBy(() => estimatePromptTokens(markLast(history)));
      // Today's main encoded the previous turn's result a second time (its original after its copy).
      expect(chars).toBeLessThan(result.length + 120);
    }
  });

  it('encodes a loop’s system prompt once for all the loops of a run that build it anew', async () => {
    const systemPrompt = 'You carry out one item of the plan, then say what you changed. '.repeat(30);
    const loop = (item: number): ChatMessage[] => [
      { role: 'system', content: `${systemPrompt}` },
      { role: 'user', content: `Item ${item}: migrate module ${item}.` },
    ];
    await estimatePromptTokens(loop(1));
    for (let item = 2; item <= 5; item += 1) {
      expect(await charsEncodedBy(() => estimatePromptTokens(loop(item)))).toBeLessThan(100);
    }
  });

  describe('a fresh context whose stable sections end at a marked offset', () => {
    const stable = [
      '## The user’s request\nMigrate every module to the app logger (see src/log.ts), keep the tests green.',
      `## The plan as approved\n${Array.from({ length: 12 }, (_, index) => `- [ ] ${index + 1}. Migrate module ${index} — replace console.log() in src/m${index}.ts; Check: \`npm test\``).join('\n')}`,
      `## File map\n${Array.from({ length: 30 }, (_, index) => `src/m${index}.ts  (${index * 37} lines, 1.${index} KB) — naïve «logger» use`).join('\n')}`,
    ];
    const fresh = (changing: string, ending = ''): ChatMessage & { content: string } => {
      const stableText = stable.join('\n\n') + ending;
      return { role: 'user', content: `${stableText}\n\n${changing}`, cacheBreakpoint: stableText.length + 2 };
    };

    it('encodes the stable part once for every item of the phase', async () => {
      await estimatePromptTokens([fresh('## Current item\n1. Migrate module 0')]);
      for (let item = 2; item <= 5; item += 1) {
        const changing = `## Current item\n${item}. Migrate module ${item - 1}\n\n## Changed since the phase began\n- src/m${item - 2}.ts (edited)`;
        // Today's main encoded the whole message, its stable sections included, for every item.
        expect(await charsEncodedBy(() => estimatePromptTokens([fresh(changing)]))).toBeLessThan(changing.length + 20);
      }
    });

    it('counts it exactly as the whole text, whatever the stable part ends with and the changing part begins with', async () => {
      for (const ending of ['', '.', ')', '`', ' 42', '  ', '\n', ' —', '/']) {
        for (const changing of ['## Current item', '- [ ] 3. Step', '`code` first', '(aside)', '1. numbered', 'Ünïcode first', '«quoted»', '/leading slash', ' leading space', '\nnewline', "'s quote"]) {
          const message = fresh(changing, ending);
          const whole: ChatMessage = { role: 'user', content: message.content };
          expect(await estimatePromptTokens([message])).toBe(await estimatePromptTokens([whole]));
        }
      }
    });
  });
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
    const before = encoded.chars;
    const fitted = await keeper.fit(asRequest);
    expect(fitted.trimmed).toBeNull();
    expect(encoded.chars - before).toBeLessThan(result.length / 10);
    expect(await fitted.promptTokens()).toBe(await estimatePromptTokens(fitted.request.messages));
    expect(encoded.chars - before).toBeGreaterThan(result.length);
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
