import { APIConnectionError, APIError, APIUserAbortError } from 'openai';
import { describe, expect, it } from 'vitest';
import { llmErrorFrom, type ErrorContext } from '../../../engine/llm/llmErrorMessages.js';
import { streamFailureError } from '../../../engine/llm/streamFailureError.js';
import { saysToolsUnsupported } from '../../../engine/llm/serverErrorWords.js';

const context: ErrorContext = { baseUrl: 'http://gpu-box:8000/v1', model: 'qwen3-coder', apiKey: 'sk-live-secret-1234', maxRetries: 2 };

/** An error as the SDK builds it from an HTTP answer. */
function httpError(status: number, body: unknown): APIError {
  return APIError.generate(status, body as object, undefined, new Headers());
}

function openAiBody(message: string, code: string | null = null) {
  return { error: { message, type: 'invalid_request_error', param: null, code } };
}

describe('llmErrorFrom', () => {
  it('names the URL and the API key setting for 401 and 403, never the key itself', () => {
    const error = llmErrorFrom(httpError(401, openAiBody('Incorrect API key provided: sk-live-secret-1234.')), context, false);

    expect(error).toMatchObject({
      kind: 'auth',
      status: 401,
      message: 'The model server at http://gpu-box:8000/v1 rejected the API key (HTTP 401). Check the API key in Settings or OPENAI_API_KEY.',
    });
    expect(llmErrorFrom(httpError(403, openAiBody('Forbidden')), context, false).kind).toBe('auth');
  });

  it('cuts the key out of anything a server echoes back', () => {
    const error = llmErrorFrom(httpError(400, openAiBody('Bad key sk-live-secret-1234 in header')), context, false);

    expect(error.kind).toBe('bad-request');
    expect(error.message).not.toContain('secret');
  });

  it('tells a missing model from a wrong base URL on 404', () => {
    const ollama = llmErrorFrom(httpError(404, openAiBody('model "qwen3-coder" not found, try pulling it first')), context, false);
    expect(ollama).toMatchObject({
      kind: 'model-not-found',
      message: 'The model server at http://gpu-box:8000/v1 has no model named "qwen3-coder" (HTTP 404). Check the model name in Settings.',
    });

    const wrongPath = llmErrorFrom(httpError(404, undefined), context, false);
    expect(wrongPath.kind).toBe('server');
    expect(wrongPath.message).toContain('Check the base URL');
  });

  it.each([
    [400, 'registry.ollama.ai/library/gemma3:4b does not support tools'],
    [400, '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set'],
    [500, 'tools param requires --jinja flag'],
    [400, 'tools is not supported in this model. For a list of supported models, refer to the docs.'],
    [400, 'Functions are not supported for this API version or this model version.'],
    [422, 'This model does not support function calling'],
    [501, 'Tool calling is not supported by this server'],
    [404, "The model doesn't support tool use"],
  ])('recognises HTTP %i "%s" as tools-unsupported', (status, message) => {
    const error = llmErrorFrom(httpError(status, openAiBody(message)), context, false);

    expect(error.kind).toBe('tools-unsupported');
    expect(error.message).toContain('"qwen3-coder" at http://gpu-box:8000/v1');
    expect(error.message).toContain('tool mode to "text"');
  });

  it('reads Ollama-native error bodies, whose error is a bare string', () => {
    expect(llmErrorFrom(httpError(400, { error: 'qwen:4b does not support tools' }), context, false).kind).toBe('tools-unsupported');
  });

  it('does not take other tool complaints for missing tool support', () => {
    expect(saysToolsUnsupported("Invalid tool_choice type: 'object'. Supported string values: none, auto, required")).toBe(false);
    expect(saysToolsUnsupported('This model’s maximum context length is 8192 tokens')).toBe(false);
    expect(llmErrorFrom(httpError(400, openAiBody("Invalid 'tools[0].function.name': empty string")), context, false).kind).toBe(
      'bad-request',
    );
  });

  it('maps 429 to rate-limited and 5xx to server, saying the SDK already retried', () => {
    const limited = llmErrorFrom(httpError(429, openAiBody('Rate limit reached')), context, false);
    expect(limited).toMatchObject({ kind: 'rate-limited', status: 429 });
    expect(limited.message).toContain('after 2 retries');

    expect(llmErrorFrom(httpError(503, undefined), context, false)).toMatchObject({ kind: 'server', status: 503 });
  });

  it('names the connection error code when the server cannot be reached', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 10.0.0.9:8000'), { code: 'ECONNREFUSED' });
    const error = llmErrorFrom(new APIConnectionError({ cause: new TypeError('fetch failed', { cause: refused }) }), context, false);

    expect(error).toMatchObject({
      kind: 'unreachable',
      message: 'Cannot reach the model server at http://gpu-box:8000/v1 (ECONNREFUSED). Check the base URL and that the server is running.',
    });
  });

  it('maps an error sent inside the stream, and the caller abort', () => {
    const streamed = new APIError(undefined, { message: 'CUDA out of memory' }, undefined, undefined);
    expect(llmErrorFrom(streamed, context, false)).toMatchObject({ kind: 'server' });
    expect(llmErrorFrom(streamed, context, false).message).toContain('CUDA out of memory');

    expect(llmErrorFrom(new APIUserAbortError(), context, false).kind).toBe('cancelled');
    expect(llmErrorFrom(new Error('anything'), context, true).kind).toBe('cancelled');
  });

  it('never shows a password in the base URL', () => {
    const withPassword = { ...context, baseUrl: 'https://me:hunter2@proxy.example/v1' };
    const error = llmErrorFrom(httpError(500, undefined), withPassword, false);

    expect(error.message).toContain('https://proxy.example/v1');
    expect(error.message).not.toContain('hunter2');
  });

  it('never shows a password or the key quoted by fetch’s own reason for failing', () => {
    const withPassword = { ...context, baseUrl: 'https://me:hunter2@proxy.example/v1' };
    const refusedUrl = new TypeError('Request cannot be constructed from a URL that includes credentials: https://me:hunter2@proxy.example/v1/models');
    const badHeader = new TypeError('Headers.append: "Bearer sk-live-secret-1234\n" is an invalid header value.');

    const fromUrl = llmErrorFrom(new APIConnectionError({ cause: refusedUrl }), withPassword, false);
    const fromHeader = llmErrorFrom(new APIConnectionError({ cause: badHeader }), context, false);

    expect(fromUrl).toMatchObject({ kind: 'unreachable' });
    expect(fromUrl.message).toContain('includes credentials: https://proxy.example/v1/models');
    expect(fromUrl.message).not.toContain('hunter2');
    expect(fromHeader.message).toContain('Bearer [key]');
    expect(fromHeader.message).not.toContain('secret');
  });
});

describe('streamFailureError', () => {
  it('says how the stream failed and how many times', () => {
    const failure = { ...context, attempts: 3, idleTimeoutMs: 90_000, queueLimitMs: 35 * 60_000 };

    expect(streamFailureError({ kind: 'stalled' }, failure).message).toBe(
      'The model server at http://gpu-box:8000/v1 sent nothing for 90 seconds in the middle of a reply, 3 times in a row. ' +
        'Check that the server is not overloaded, then try again.',
    );
    expect(streamFailureError({ kind: 'dropped' }, { ...failure, attempts: 1 }).message).toBe(
      "The connection to the model server at http://gpu-box:8000/v1 dropped in the middle of a reply. Check the network and the server's logs, then try again.",
    );
    expect(streamFailureError({ kind: 'truncated' }, failure).kind).toBe('truncated');
  });
});

describe('limits of the account are not limits of the model', () => {
  it("Groq's tokens-per-minute 413 is a rate limit, never a context overflow", () => {
    const groq = httpError(413, openAiBody('Request too large for model `llama-3.3-70b-versatile` in organization `org_x` service tier `on_demand` on tokens per minute (TPM): Limit 6000, Requested 12328, please reduce your message size and try again.', 'rate_limit_exceeded'));
    expect(llmErrorFrom(groq, context, false)).toMatchObject({ kind: 'rate-limited', status: 413 });
  });

  it('an account out of quota or credit (429 insufficient_quota, 402) says so, with the server\'s words', () => {
    const quota = llmErrorFrom(httpError(429, openAiBody('You exceeded your current quota, please check your plan and billing details.', 'insufficient_quota')), context, false);
    expect(quota).toMatchObject({ kind: 'quota', status: 429 });
    expect(quota.message).toBe(
      'The model server at http://gpu-box:8000/v1 says the account has no credit or quota left (HTTP 429: You exceeded your current quota, please check your plan and billing details). Check your plan and billing with the provider, then try again.',
    );
    expect(llmErrorFrom(httpError(402, { error: { message: 'Insufficient credits', code: 402 } }), context, false).kind).toBe('quota');
  });
});

