import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../../../engine/llm/llmTypes.js';
import { breakpointsIn } from '../../../support/fakeLlm/index.js';
import { useFakeLlm } from '../../../support/fakeLlm/useFakeLlm.js';
import { clientAt, complete, readFileTool } from '../llmClientHarness.js';

const cacheKey = '0b7e4b52-3f1c-4b8e-9a51-6f2d1c7e9a40';

const stable = '# Request\nAdd a --json flag.\n\n# Plan as approved\n1. Parse the flag\n2. Print JSON\n\n';

/** A phase's request as the RPI layout builds it: [system][user: stable sections, then the changing ones][turn history]. */
const phaseRequest: ChatMessage[] = [
  { role: 'system', content: 'You are the Implement phase of a careful coding agent.', cacheBreakpoint: true },
  { role: 'user', content: `${stable}# Now\nItem 2 of 2: Print JSON`, cacheBreakpoint: stable.length },
  { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '{"path":"src/cli.ts"}' } }] },
  { role: 'tool', tool_call_id: 'call_1', content: 'export function main() {}' },
];

/** The messages as every server but Claude through OpenRouter must receive them: as given, without the mark. */
const plainMessages = phaseRequest.map(({ cacheBreakpoint: _mark, ...message }) => message);

describe('cache hints: what each server gets', () => {
  const fake = useFakeLlm();

  it.each([
    ['OpenAI', 'https://api.openai.com/v1'],
    ['Azure OpenAI', 'https://contoso.openai.azure.com/openai/v1'],
    ['Mistral', 'https://api.mistral.ai/v1'],
    ['OpenRouter (a model other than Claude)', 'https://openrouter.ai/api/v1'],
  ])('%s: the folder key as prompt_cache_key, the messages as given', async (_server, baseUrl) => {
    fake().enqueue({ text: 'ok' });

    await complete(clientAt(fake(), baseUrl, { cacheKey, model: 'openai/gpt-4.1' }), { messages: phaseRequest, tools: [readFileTool] });

    expect(fake().promptCacheKeys()).toEqual([cacheKey]);
    expect(fake().chatRequests()[0]?.messages).toEqual(plainMessages);
  });

  it.each([
    ['xAI', 'https://api.x.ai/v1', 'x-grok-conv-id'],
    ['Fireworks', 'https://api.fireworks.ai/inference/v1', 'x-session-affinity'],
  ])('%s (%s): the folder key in its header %s, nothing in the body', async (_server, baseUrl, header) => {
    fake().enqueue({ text: 'ok' });

    await complete(clientAt(fake(), baseUrl, { cacheKey }), { messages: phaseRequest });

    expect(fake().requests[0]?.headers[header]).toBe(cacheKey);
    expect(fake().promptCacheKeys()).toEqual([null]);
  });

  it.each([
    ['DeepSeek', 'https://api.deepseek.com/v1', 'deepseek-chat'],
    ['Groq', 'https://api.groq.com/openai/v1', 'openai/gpt-oss-120b'],
    ['Together', 'https://api.together.xyz/v1', 'Qwen/Qwen3-Coder-480B'],
    ['Anthropic-compatible proxy (LiteLLM)', 'http://localhost:4000/v1', 'claude-sonnet-4-5'],
    ['vLLM', 'http://gpu-box:8000/v1', 'Qwen/Qwen2.5-Coder-32B-Instruct'],
    ['Ollama', 'http://localhost:11434/v1', 'qwen2.5-coder:14b'],
    ['LM Studio', 'http://localhost:1234/v1', 'qwen2.5-coder-14b-instruct'],
  ])('%s: nothing it does not know, not even the mark', async (_server, baseUrl, model) => {
    fake().enqueue({ text: 'ok' });

    await complete(clientAt(fake(), baseUrl, { cacheKey, model }), { messages: phaseRequest, tools: [readFileTool] });

    const [request] = fake().requests;
    expect(Object.keys(request?.body as object).sort()).toEqual(['messages', 'model', 'stream', 'stream_options', 'tools']);
    expect(fake().chatRequests()[0]?.messages).toEqual(plainMessages);
    expect(Object.keys(request?.headers ?? {}).filter((name) => /conv-id|session|affinity|cache/i.test(name))).toEqual([]);
  });

  it('sends no key where no folder key is given', async () => {
    fake().enqueue({ text: 'ok' });

    await complete(clientAt(fake(), 'https://api.openai.com/v1'), { messages: phaseRequest });

    expect(fake().promptCacheKeys()).toEqual([null]);
  });

  it('sends no hints at all when prompt caching is off', async () => {
    fake().enqueue({ text: 'ok' }, { text: 'ok' }, { text: 'ok' });

    await complete(clientAt(fake(), 'https://api.openai.com/v1', { cacheKey, promptCaching: 'off' }), { messages: phaseRequest });
    await complete(clientAt(fake(), 'https://api.x.ai/v1', { cacheKey, promptCaching: 'off' }), { messages: phaseRequest });
    await complete(clientAt(fake(), 'https://openrouter.ai/api/v1', { cacheKey, model: 'anthropic/claude-sonnet-4.5', promptCaching: 'off' }), { messages: phaseRequest });

    expect(fake().promptCacheKeys()).toEqual([null, null, null]);
    expect(fake().requests[1]?.headers['x-grok-conv-id']).toBeUndefined();
    expect(fake().chatRequests().map((body) => body.messages)).toEqual([plainMessages, plainMessages, plainMessages]);
  });
});

describe('cache hints: Claude through OpenRouter', () => {
  const fake = useFakeLlm({ cacheHints: 'anthropic-limits' });
  const openRouter = 'https://openrouter.ai/api/v1';

  it('ends the system message and the stable sections of the user message with a cache_control breakpoint, and nothing else', async () => {
    fake().enqueue({ text: 'ok' });

    await complete(clientAt(fake(), openRouter, { cacheKey, model: 'anthropic/claude-sonnet-4.5' }), { messages: phaseRequest, tools: [readFileTool] });

    const [body] = fake().chatRequests();
    expect(breakpointsIn(body)).toEqual([0, 1]);
    expect(body?.messages.slice(0, 2)).toEqual([
      { role: 'system', content: [{ type: 'text', text: 'You are the Implement phase of a careful coding agent.', cache_control: { type: 'ephemeral' } }] },
      {
        role: 'user',
        content: [
          { type: 'text', text: stable, cache_control: { type: 'ephemeral' } },
          { type: 'text', text: '# Now\nItem 2 of 2: Print JSON' },
        ],
      },
    ]);
    expect(body?.messages.slice(2)).toEqual(plainMessages.slice(2));
    expect(fake().promptCacheKeys()).toEqual([cacheKey]);
  });

  it('marks the last part of a message already in parts', async () => {
    fake().enqueue({ text: 'ok' });
    const parts: ChatMessage = {
      role: 'user',
      content: [
        { type: 'text', text: 'Request' },
        { type: 'text', text: 'Attached: notes.md' },
      ],
      cacheBreakpoint: true,
    };

    await complete(clientAt(fake(), openRouter, { model: 'anthropic/claude-haiku-4.5' }), { messages: [parts, { role: 'user', content: 'Now' }] });

    expect(fake().chatRequests()[0]?.messages[0]).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'Request' },
        { type: 'text', text: 'Attached: notes.md', cache_control: { type: 'ephemeral' } },
      ],
    });
  });

  it('keeps to 4 breakpoints, the last ones marked, and passes over a message with nothing to mark', async () => {
    fake().enqueue({ text: 'ok' });
    const messages: ChatMessage[] = [
      { role: 'system', content: 'system', cacheBreakpoint: true },
      { role: 'user', content: 'one', cacheBreakpoint: true },
      { role: 'user', content: '', cacheBreakpoint: true },
      { role: 'user', content: 'two', cacheBreakpoint: true },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '{}' } }], cacheBreakpoint: true },
      { role: 'tool', tool_call_id: 'call_1', content: 'three', cacheBreakpoint: true },
      { role: 'user', content: 'four', cacheBreakpoint: true },
    ];

    await complete(clientAt(fake(), openRouter, { model: 'anthropic/claude-opus-4.1' }), { messages });

    expect(breakpointsIn(fake().chatRequests()[0])).toEqual([1, 3, 5, 6]);
    expect(JSON.stringify(fake().chatRequests()[0])).not.toContain('cacheBreakpoint');
  });
});
