import { describe, expect, it, vi } from 'vitest';
import type * as O200k from 'gpt-tokenizer/encoding/o200k_base';
import type { ChatMessage } from '../../../engine/llm/llmTypes.js';
import { estimatePromptTokens } from '../../../engine/llm/tokenEstimate.js';
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
});
