import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../../engine/llm/llmTypes.js';
import { estimateCompletionTokens, estimatePromptTokens } from '../../../engine/llm/tokenEstimate.js';
import type { ToolDefinition } from '../../../engine/tools/toolCatalog.js';

const readFileTool: ToolDefinition = {
  type: 'function',
  function: {
    name: 'read_file',
    description: 'Read a text file of the project.',
    parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  },
};

describe('estimatePromptTokens', () => {
  it('counts OpenAI-style: 3 per message, its role and content, and 3 to prime the reply', async () => {
    // "hello" is one token in o200k_base, and so are "user" and "system".
    expect(await estimatePromptTokens([{ role: 'user', content: 'hello' }])).toBe(3 + 1 + 1 + 3);
    expect(
      await estimatePromptTokens([
        { role: 'system', content: 'hello' },
        { role: 'user', content: 'hello' },
      ]),
    ).toBe(2 * (3 + 1 + 1) + 3);
  });

  it('counts text parts, tool calls and tool results', async () => {
    const plain = await estimatePromptTokens([{ role: 'user', content: 'Read the file please.' }]);
    const asParts = await estimatePromptTokens([{ role: 'user', content: [{ type: 'text', text: 'Read the file please.' }] }]);
    expect(asParts).toBe(plain);

    const messages: ChatMessage[] = [
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '{"path":"src/app.ts"}' } }] },
      { role: 'tool', tool_call_id: 'call_1', content: 'export const app = 1;' },
    ];
    const withoutToolParts = await estimatePromptTokens([
      { role: 'assistant', content: null },
      { role: 'tool', tool_call_id: '', content: '' },
    ]);
    expect(await estimatePromptTokens(messages)).toBeGreaterThan(withoutToolParts + 10);
  });

  it('counts tool definitions toward the prompt', async () => {
    const messages: ChatMessage[] = [{ role: 'user', content: 'hello' }];
    const withoutTools = await estimatePromptTokens(messages);

    expect(await estimatePromptTokens(messages, [])).toBe(withoutTools);
    expect(await estimatePromptTokens(messages, [readFileTool])).toBeGreaterThan(withoutTools + 20);
  });

  it('counts text that looks like a special token instead of refusing it', async () => {
    expect(await estimatePromptTokens([{ role: 'user', content: 'end <|endoftext|> here' }])).toBeGreaterThan(7);
  });
});

describe('estimateCompletionTokens', () => {
  it('counts the text, and per tool call its name, its arguments and a small overhead', async () => {
    expect(await estimateCompletionTokens('')).toBe(0);
    expect(await estimateCompletionTokens('hello')).toBe(1);

    const asText = await estimateCompletionTokens('', [{ id: 'call_1', name: 'read_file', arguments: '{"path":"a.ts"}' }]);
    const asObject = await estimateCompletionTokens('', [{ id: 'call_1', name: 'read_file', arguments: { path: 'a.ts' } }]);
    expect(asText).toBeGreaterThan(3);
    expect(asObject).toBe(asText);
  });
});
