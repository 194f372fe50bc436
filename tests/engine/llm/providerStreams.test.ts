import { describe, expect, it } from 'vitest';
import type { LlmStatus } from '../../../engine/llm/llmTypes.js';
import { fastApiError, flatError, geminiError, nestError, type ErrorResponse } from '../../support/fakeLlm/errors.js';
import type { ErrorFrameShape, Quirk, ScriptedTurn } from '../../support/fakeLlm/types.js';
import { useFakeLlm, useFakeLlmStarter } from '../../support/fakeLlm/useFakeLlm.js';
import { clientFor, complete, failureOf, parsedArguments, readFileTool, userMessages } from './llmClientHarness.js';

const answer = 'The server starts in src/app.ts, which reads the port from the environment and listens on it.';
const thoughts = 'The user asks where the server starts; app.ts has the listen call, so that is the answer.';

/** Every status a call told, in order. */
async function withStatuses(run: (onStatus: (status: LlmStatus) => void) => Promise<unknown>): Promise<LlmStatus[]> {
  const statuses: LlmStatus[] = [];
  await run((status) => statuses.push(status));
  return statuses;
}

describe('real servers\' stream framing', () => {
  const fake = useFakeLlm();

  it('SSE keep-alive comments while a request is queued are a sign of life, told as "queued", not a stall', async () => {
    fake().enqueue({ text: answer, queued: { comments: 8, everyMs: 40, text: 'OPENROUTER PROCESSING' } });
    let reply = '';
    const statuses = await withStatuses(async (onStatus) => {
      reply = (await clientFor(fake(), { idleTimeoutMs: 150 }).complete({ messages: userMessages }, { signal: new AbortController().signal, onStatus })).text;
    });
    expect(reply).toBe(answer);
    expect(statuses.map((status) => status.state)).toEqual(['waiting', 'queued', 'answering']);
  });

  it('a request queued past the queue limit ends with one sentence saying so, without another attempt', async () => {
    fake().enqueue({ text: answer, queued: { comments: 20, everyMs: 30 } });
    const error = await failureOf(complete(clientFor(fake(), { idleTimeoutMs: 150, queueLimitMs: 200, maxRetries: 2 })));
    expect(error.kind).toBe('stalled');
    expect(error.message).toBe(
      `The model server at ${fake().baseUrl} kept the request queued for 0.2 seconds without starting the reply. The server is overloaded: try again later, or use another server.`,
    );
    expect(fake().chatRequests()).toHaveLength(1);
  });

  it.each<[string, Quirk[]]>([
    ['reasoning_content (DeepSeek, vLLM, llama.cpp)', []],
    ['reasoning (OpenRouter, Ollama, Groq)', ['reasoning-field']],
    ['reasoning with reasoning_details (OpenRouter)', ['reasoning-details']],
    ['content parts with thinking parts (Mistral magistral)', ['content-as-parts']],
  ])('keeps reasoning apart from the answer: %s', async (_name, quirks) => {
    fake().enqueue({ text: answer, reasoning: thoughts, quirks });
    const deltas: string[] = [];
    const statuses: LlmStatus[] = [];
    const reply = await clientFor(fake()).complete(
      { messages: userMessages },
      { signal: new AbortController().signal, onTextDelta: (text) => deltas.push(text), onStatus: (status) => statuses.push(status) },
    );
    expect(reply.text).toBe(answer);
    expect(reply.reasoning).toBe(thoughts);
    expect(deltas.join('')).toBe(answer);
    expect(statuses.map((status) => status.state)).toEqual(['waiting', 'thinking', 'answering']);
  });

  it.each<Quirk[]>([['finish-reason-key-absent'], ['azure-filter-chunks'], ['content-as-parts']])('reads a reply framed with %s', async (quirk) => {
    fake().enqueue({ text: answer, quirks: [quirk] });
    const { reply, deltas } = await complete(clientFor(fake()));
    expect(reply).toMatchObject({ text: answer, finishReason: 'stop' });
    expect(deltas.join('')).toBe(answer);
  });

  const calls = [
    { name: 'read_file', arguments: { path: 'src/app.ts', offset: 1, limit: 40 } },
    { name: 'search_files', arguments: { pattern: 'listen\\(', glob: '*.ts' } },
  ];
  it.each<Quirk>([
    'indexes-from-1',
    'index-0-for-every-call',
    'id-on-every-fragment',
    'null-id-on-continuation',
    'changing-id',
    'head-and-arguments-on-different-indexes',
    'name-on-every-fragment',
    'null-name-on-continuation',
    'empty-name-on-continuation',
    'no-arguments-on-head',
    'whole-call-per-fragment',
    'all-calls-in-one-chunk',
    'fragments-without-index',
    'fragments-without-id',
    'arguments-as-object',
  ])('assembles two parallel tool calls streamed with %s', async (quirk) => {
    fake().enqueue({ toolCalls: calls, quirks: [quirk] });
    const { reply } = await complete(clientFor(fake()), { messages: userMessages, tools: [readFileTool] });
    expect(reply.toolCalls.map((call) => ({ name: call.name, arguments: parsedArguments(call.arguments) }))).toEqual(calls);
    expect(new Set(reply.toolCalls.map((call) => call.id)).size).toBe(2);
  });

  it.each<[ErrorFrameShape, string]>([
    ['openai', 'data: {"error": {…}}'],
    ['vllm-flat', 'data: {"object": "error", …}'],
    ['llamacpp-field', 'error: {…} then [DONE]'],
    ['openrouter', 'a chunk with error and finish_reason "error"'],
    ['event-error', 'event: error'],
  ])('gives the server\'s own words for an error streamed as %s (%s)', async (shape) => {
    const message = 'the request exceeds the available context size, try increasing it';
    fake().enqueue({ text: answer, fault: { type: 'error-frame', shape, message, code: 400, afterChunks: 2 } });
    const error = await failureOf(complete(clientFor(fake(), { maxRetries: 2 })));
    expect(error.kind).toBe('context-exceeded');
    expect(error.message).toContain(message);
    expect(fake().chatRequests()).toHaveLength(1);
  });

  it.each<[string, string, number | undefined]>([
    ['LM Studio', 'Input does not fit in context length. The input has 31430 tokens, but the context length only supports 30000 tokens.', 30_000],
    ["LM Studio's MLX engine", 'Context size has been exceeded.', undefined],
  ])("reads %s's context overflow as one, and the window when it names one", async (_server, message, limit) => {
    fake().enqueue({ text: answer, fault: { type: 'error-frame', shape: 'event-error', message, code: 400, afterChunks: 0 } });
    const error = await failureOf(complete(clientFor(fake(), { maxRetries: 2 })));
    expect(error).toMatchObject({ kind: 'context-exceeded', contextLimit: limit });
    expect(fake().chatRequests()).toHaveLength(1);
  });

  it('retries an overloaded backend reported mid-stream, then names it with its words when it persists', async () => {
    const overloaded: ScriptedTurn = { text: answer, fault: { type: 'error-frame', shape: 'openrouter', message: 'Provider returned error: overloaded', code: 502 } };
    fake().enqueue(overloaded, overloaded);
    const error = await failureOf(complete(clientFor(fake(), { maxRetries: 1 })));
    expect(error.kind).toBe('server');
    expect(error.message).toBe(
      `The model server at ${fake().baseUrl} reported an error in the middle of a reply (Provider returned error: overloaded). Try again, or check the server's logs.`,
    );
    expect(fake().chatRequests()).toHaveLength(2);
  });
});

describe('streams that end or are framed unusually', () => {
  const fake = useFakeLlm();

  it('reads events separated by single newlines, which a standard parser joins (Baseten GLM, Kimi)', async () => {
    fake().enqueue({ text: answer, reasoning: thoughts, usage: { promptTokens: 900, completionTokens: 40 }, quirks: ['single-newline-events'] });
    const { reply, deltas } = await complete(clientFor(fake()));
    expect(reply).toMatchObject({ text: answer, reasoning: thoughts, usage: { promptTokens: 900, completionTokens: 40, estimated: false } });
    expect(deltas.join('')).toBe(answer);
  });

  it('tells an event stream labelled otherwise whose first chunk ends inside `data:`', async () => {
    fake().enqueue({ text: answer, quirks: ['stream-as-json', 'frames-split-in-field'] });
    expect((await complete(clientFor(fake(), { maxRetries: 0 }))).reply.text).toBe(answer);
  });

  it.each<Quirk>(['stream-as-text-plain', 'stream-as-json'])('reads an event stream labelled otherwise (%s) live, as it comes', async (quirk) => {
    // Longer in all than the first-byte limit: read whole before any of it counted, it would fail as silent.
    fake().enqueue({ text: answer, reasoning: thoughts, delayMs: 80, quirks: [quirk] });
    const deltas: string[] = [];
    const statuses: LlmStatus[] = [];
    const reply = await clientFor(fake(), { firstByteTimeoutMs: 1_000, maxRetries: 0 }).complete(
      { messages: userMessages },
      { signal: new AbortController().signal, onTextDelta: (text) => deltas.push(text), onStatus: (status) => statuses.push(status) },
    );
    expect(reply).toMatchObject({ text: answer, reasoning: thoughts });
    expect(deltas.join('')).toBe(answer);
    expect(statuses.map((status) => status.state)).toEqual(['waiting', 'thinking', 'answering']);
  });

  it('keeps a reply whose finish reason arrived when the connection breaks before [DONE], asking nothing again', async () => {
    fake().enqueue({ text: answer, fault: { type: 'drop-mid-stream', afterChunks: 1000 } });
    const { reply } = await complete(clientFor(fake(), { maxRetries: 2 }));
    expect(reply).toMatchObject({ text: answer, finishReason: 'stop' });
    expect(fake().chatRequests()).toHaveLength(1);
  });

  it('treats finish_reason "error" without an error object as a failed reply, tried again', async () => {
    fake().enqueue({ text: 'half an ans', finishReason: 'error' }, { text: answer });
    const { reply } = await complete(clientFor(fake(), { maxRetries: 1 }));
    expect(reply.text).toBe(answer);
    expect(fake().chatRequests()).toHaveLength(2);
  });

  it('bounds the silence before a reply starts by the first-byte limit, and says the reply never started', async () => {
    fake().enqueue({ text: answer, fault: { type: 'stall-after-headers', afterChunks: 1 } });
    const error = await failureOf(complete(clientFor(fake(), { firstByteTimeoutMs: 150, idleTimeoutMs: 60_000 })));
    expect(error.message).toBe(
      `The model server at ${fake().baseUrl} did not start answering within 0.15 seconds. Check that it is running and not overloaded; a model that is still loading, or a very long prompt on a slow machine, may need longer.`,
    );
  });
});

describe("DeepSeek's thinking mode", () => {
  const start = useFakeLlmStarter();

  it('sends the reasoning back with the tool calls it came with, so the next turn of the loop is accepted', async () => {
    const fake = await start({ requireReasoningBack: true });
    fake.enqueue({ reasoning: thoughts, toolCalls: [calls0] }, { text: answer });
    const client = clientFor(fake);
    const { reply: first } = await complete(client, { messages: userMessages, tools: [readFileTool] });
    expect(first.reasoningEcho).toEqual({ reasoning_content: thoughts });
    const [call] = first.toolCalls;
    const history = [
      ...userMessages,
      { role: 'assistant' as const, content: null, ...first.reasoningEcho, tool_calls: [{ id: call?.id ?? '', type: 'function' as const, function: { name: 'read_file', arguments: '{}' } }] },
      { role: 'tool' as const, tool_call_id: call?.id ?? '', content: 'export function main() {}' },
    ];
    expect((await complete(client, { messages: history, tools: [readFileTool] })).reply.text).toBe(answer);
  });
});

describe("Gemini's OpenAI-compatible endpoint", () => {
  const start = useFakeLlmStarter();

  it('keeps each tool call\'s thought signature and sends it back with that call, so the next turn is accepted', async () => {
    const fake = await start({ requireThoughtSignatures: true });
    fake.enqueue({ toolCalls: [calls0], quirks: ['thought-signatures'] }, { text: answer });
    const client = clientFor(fake);
    const { reply: first } = await complete(client, { messages: userMessages, tools: [readFileTool] });
    const [call] = first.toolCalls;
    expect(call?.extraContent).toEqual({ google: { thought_signature: expect.stringMatching(/^sig-/) } });
    const history = [
      ...userMessages,
      { role: 'assistant' as const, content: null, tool_calls: [{ id: call?.id ?? '', type: 'function' as const, function: { name: 'read_file', arguments: '{}' }, extra_content: call?.extraContent }] },
      { role: 'tool' as const, tool_call_id: call?.id ?? '', content: 'export function main() {}' },
    ];
    const { reply: second } = await complete(client, { messages: history, tools: [readFileTool] });
    expect(second.text).toBe(answer);
  });

  it("reads the message of an error body sent as a JSON array", async () => {
    const fake = await start();
    const { status, body } = geminiError(400, '* GenerateContentRequest.contents: contents is not specified');
    fake.enqueue({ fault: { type: 'http-error', status, body, headers: { 'content-type': 'application/json' } } });
    const error = await failureOf(complete(clientFor(fake)));
    expect(error).toMatchObject({ kind: 'bad-request', status: 400 });
    expect(error.message).toContain('HTTP 400: * GenerateContentRequest.contents: contents is not specified');
  });

  const httpError = ({ status, body }: ErrorResponse): ScriptedTurn => ({ fault: { type: 'http-error', status, body, headers: { 'content-type': 'application/json' } } });

  it("reads a context overflow in vLLM's flat error body as one, with the window it names", async () => {
    const fake = await start();
    const words = "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens (4000 in the messages, 1000 in the completion).";
    fake.enqueue(httpError(flatError(400, words)));
    const error = await failureOf(complete(clientFor(fake)));
    expect(error).toMatchObject({ kind: 'context-exceeded', status: 400, contextLimit: 4096 });
    expect(error.message).toContain('maximum context length is 4096 tokens');
  });

  it("reads a context overflow in a NestJS proxy's body, whose `error` is only the status's name", async () => {
    const fake = await start();
    fake.enqueue(httpError(nestError(400, "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens.")));
    expect(await failureOf(complete(clientFor(fake)))).toMatchObject({ kind: 'context-exceeded', status: 400, contextLimit: 8192 });
  });

  it("reads an unknown model in vLLM's flat error body as one", async () => {
    const fake = await start();
    fake.enqueue(httpError(flatError(404, 'The model `qwen-big` does not exist.', 'NotFoundError')));
    expect(await failureOf(complete(clientFor(fake)))).toMatchObject({ kind: 'model-not-found', status: 404 });
  });

  it.each<[string, ErrorResponse, string]>([
    ['as text', fastApiError(422, 'messages must not be empty'), 'HTTP 422: messages must not be empty'],
    ['as validation errors', fastApiError(422, [{ loc: ['body', 'messages'], msg: 'Field required', type: 'missing' }]), 'HTTP 422: Field required'],
  ])("gives the words of a FastAPI server's detail %s", async (_how, response, words) => {
    const fake = await start();
    fake.enqueue(httpError(response));
    const error = await failureOf(complete(clientFor(fake)));
    expect(error).toMatchObject({ kind: 'bad-request', status: 422 });
    expect(error.message).toContain(words);
  });
});

const calls0 = { name: 'read_file', arguments: { path: 'src/app.ts' } };
