import { expect } from 'vitest';
import { createLlmClient, type LlmClientOptions } from '../../../engine/llm/openaiClient.js';
import { LlmError, type ChatMessage, type LlmClient, type LlmReply, type LlmRequest } from '../../../engine/llm/llmTypes.js';
import type { ToolDefinition } from '../../../engine/tools/toolCatalog.js';
import type { FakeLlm } from '../../support/fakeLlm/index.js';

export const userMessages: ChatMessage[] = [
  { role: 'system', content: 'You are a careful coding agent.' },
  { role: 'user', content: 'What is in src/app.ts?' },
];

export const readFileTool: ToolDefinition = {
  type: 'function',
  function: {
    name: 'read_file',
    description: 'Read a text file of the project.',
    parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  },
};

/** A client of the fake; no retries unless a test asks, so a failing request fails at once; short backoffs when it does. */
export function clientFor(llm: FakeLlm, options: Partial<LlmClientOptions> = {}): LlmClient {
  return createLlmClient({ baseUrl: llm.baseUrl, apiKey: null, model: 'fake-model', maxRetries: 0, retryBaseDelayMs: 10, ...options });
}

export interface Completion {
  reply: LlmReply;
  /** Every onTextDelta call, in order. */
  deltas: string[];
}

export async function complete(
  client: LlmClient,
  request: LlmRequest = { messages: userMessages },
  signal: AbortSignal = new AbortController().signal,
): Promise<Completion> {
  const deltas: string[] = [];
  const reply = await client.complete(request, { signal, onTextDelta: (text) => deltas.push(text) });
  return { reply, deltas };
}

export async function failureOf(promise: Promise<unknown>): Promise<LlmError> {
  const error = await promise.then(
    () => expect.fail('expected the call to fail'),
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(LlmError);
  return error as LlmError;
}

/** Arguments as the engine will read them: JSON text parsed, objects as they are. */
export function parsedArguments(args: unknown): unknown {
  return typeof args === 'string' ? JSON.parse(args) : args;
}

/**
 * A client that believes it talks to the server at `baseUrl` (api.openai.com, openrouter.ai, …) while
 * its requests, through the real SDK and HTTP, reach the fake: the path from `/chat/` on is kept.
 */
export function clientAt(llm: FakeLlm, baseUrl: string, options: Partial<LlmClientOptions> = {}): LlmClient {
  const rerouted: typeof fetch = (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    return fetch(`${llm.baseUrl}${new URL(url).pathname.replace(/^.*(?=\/chat\/)/, '')}`, init);
  };
  return clientFor(llm, { baseUrl, fetch: rerouted, ...options });
}
