import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LlmStatus } from '../../../engine/llm/llmTypes.js';
import type { ScriptedTurn } from '../../support/fakeLlm/types.js';
import { useFakeLlm } from '../../support/fakeLlm/useFakeLlm.js';
import { clientFor, complete, failureOf, userMessages } from './llmClientHarness.js';

const answer = 'The entry point is src/app.ts.';

describe('server faults explain themselves', () => {
  const fake = useFakeLlm();
  // Nothing but the workbench's own output may reach the terminal: the SDK's logger used to print raw stream lines.
  const written: string[] = [];
  beforeEach(() => {
    written.length = 0;
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => Boolean(written.push(String(chunk))));
    vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void written.push(args.join(' ')));
    vi.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => void written.push(args.join(' ')));
  });
  afterEach(() => {
    vi.restoreAllMocks();
    expect(written).toEqual([]);
  });

  it('a server that accepts and never answers: bounded, told while waiting, retried, then one sentence', async () => {
    fake().enqueue({ fault: 'no-response' }, { fault: 'no-response' });
    const statuses: LlmStatus[] = [];
    const error = await failureOf(
      clientFor(fake(), { firstByteTimeoutMs: 150, maxRetries: 1 }).complete({ messages: userMessages }, { signal: new AbortController().signal, onStatus: (status) => statuses.push(status) }),
    );
    expect(error.kind).toBe('stalled');
    expect(error.message).toBe(
      `The model server at ${fake().baseUrl} did not start answering within 0.15 seconds, 2 times in a row. Check that it is running and not overloaded; a model that is still loading may need longer.`,
    );
    expect(statuses).toEqual([
      { state: 'waiting' },
      { state: 'retrying', attempt: 2, attempts: 2, delayMs: 10, reason: 'no answer before the time limit' },
      { state: 'waiting' },
    ]);
  });

  it('a data line that is not JSON: its own sentence quoting the line, nothing on stderr', async () => {
    fake().enqueue({ text: answer, fault: 'garbled-line' });
    const error = await failureOf(complete(clientFor(fake())));
    expect(error.kind).toBe('garbled');
    expect(error.message).toBe(
      `The model server at ${fake().baseUrl} sent a line in its stream that is not JSON ("{\\"id\\":\\"chatcmpl-fake\\",\\"choices\\":[{\\"delta\\":{\\"content\\":\\"half"). Check that the base URL points at an OpenAI-compatible server, and its logs.`,
    );
  });

  it('a garbled line is retried like a dropped stream, and the retry can succeed', async () => {
    fake().enqueue({ text: answer, fault: 'garbled-line' }, { text: answer });
    const { reply } = await complete(clientFor(fake(), { maxRetries: 2 }));
    expect(reply.text).toBe(answer);
  });

  it('an HTML page with status 200: named as a web page with the base URL to check, not retried', async () => {
    fake().enqueue({ fault: 'html-page' });
    const error = await failureOf(complete(clientFor(fake(), { maxRetries: 3 })));
    expect(error.message).toBe(
      `The model server at ${fake().baseUrl} answered with a web page (HTML), not a model stream. Check the base URL: OpenAI-compatible servers usually serve under /v1, and a proxy may be showing its own page.`,
    );
    expect(fake().chatRequests()).toHaveLength(1);
  });

  it('replies with empty choices every time: said as such, not as a missing finish_reason', async () => {
    const empty: ScriptedTurn = { text: answer, fault: 'no-choices' };
    fake().enqueue(empty, empty);
    const error = await failureOf(complete(clientFor(fake(), { maxRetries: 1 })));
    expect(error.kind).toBe('garbled');
    expect(error.message).toMatch(/streamed \d+ chunks without any reply in them \(no choices\), 2 times in a row/);
  });

  it('403: says access was refused, with the server\'s words, not that the key was wrong', async () => {
    fake().enqueue({ fault: 'http-403' });
    const error = await failureOf(complete(clientFor(fake())));
    expect(error).toMatchObject({ kind: 'auth', status: 403 });
    expect(error.message).toBe(
      `The model server at ${fake().baseUrl} refused access to "fake-model" (HTTP 403: Project \`proj_fake\` does not have access to model \`fake-model\`). ` +
        'Check that your account or key may use this model and this server, e.g. its region and permissions.',
    );
  });

  it('HTTP 500 three times then success: the default retries get through, each wait told as it starts', async () => {
    fake().enqueue({ fault: 'http-500' }, { fault: 'http-500' }, { fault: 'http-500' }, { text: answer });
    const statuses: LlmStatus[] = [];
    const client = clientFor(fake(), { maxRetries: undefined, retryBaseDelayMs: 5 });
    const reply = await client.complete({ messages: userMessages }, { signal: new AbortController().signal, onStatus: (status) => statuses.push(status) });
    expect(reply.text).toBe(answer);
    expect(statuses.filter((status) => status.state === 'retrying')).toEqual([
      { state: 'retrying', attempt: 2, attempts: 5, delayMs: 5, reason: 'HTTP 500' },
      { state: 'retrying', attempt: 3, attempts: 5, delayMs: 10, reason: 'HTTP 500' },
      { state: 'retrying', attempt: 4, attempts: 5, delayMs: 20, reason: 'HTTP 500' },
    ]);
  });

  it('Retry-After is honoured; a wait longer than the client allows is not waited for', async () => {
    fake().enqueue({ fault: { type: 'http-429', retryAfterSeconds: 0 } }, { text: answer });
    const statuses: LlmStatus[] = [];
    await clientFor(fake(), { maxRetries: 2 }).complete({ messages: userMessages }, { signal: new AbortController().signal, onStatus: (status) => statuses.push(status) });
    expect(statuses).toContainEqual({ state: 'retrying', attempt: 2, attempts: 3, delayMs: 0, reason: 'HTTP 429' });

    fake().enqueue({ fault: { type: 'http-429', retryAfterSeconds: 3600 } });
    const error = await failureOf(complete(clientFor(fake(), { maxRetries: 2 })));
    expect(error.kind).toBe('rate-limited');
    expect(fake().chatRequests()).toHaveLength(3);
  });
});
