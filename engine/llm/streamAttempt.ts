import { APIUserAbortError, type OpenAI } from 'openai';
import type { ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import { ChunkReader, type StreamedReply } from './chunkReader.js';
import type { LlmStatus } from './llmTypes.js';
import { sseItems } from './sseItems.js';
import { errorIn, frameOf, isRecord, type ReportedError } from './streamFrames.js';
import type { AttemptText } from './textRelay.js';

export type { StreamedReply };

export interface AttemptInput {
  sdk: OpenAI;
  params: ChatCompletionCreateParamsStreaming;
  /** The caller's signal; aborting it ends the attempt at once. */
  signal: AbortSignal;
  /** How long the stream may send nothing at all (not even a keep-alive) once the headers are in. */
  idleTimeoutMs: number;
  /** How long the server may keep the request queued (keep-alives only, no reply yet). */
  queueLimitMs: number;
  onText: AttemptText;
  onStatus: (status: LlmStatus) => void;
}

/** Why an attempt ended without a reply; every kind is worth one more attempt. */
export type AttemptFailure =
  | { kind: 'dropped' }
  | { kind: 'stalled' }
  | { kind: 'queued-too-long' }
  | { kind: 'truncated' }
  | { kind: 'no-choices'; chunks: number }
  | { kind: 'garbled'; sample: string }
  | { kind: 'not-a-stream'; contentType: string; sample: string }
  | { kind: 'reported'; error: ReportedError };

export type AttemptOutcome = { ok: true; reply: StreamedReply } | { ok: false; failure: AttemptFailure };

/**
 * One request and its stream. The request goes through the SDK (auth, base URL, error statuses, which it
 * throws as APIError); the body is read here, because real servers frame their streams in ways the SDK's
 * reader loses (keep-alive comments, error frames in several shapes, lines that are not JSON, a JSON or
 * HTML body instead of a stream). Any byte re-arms the idle watchdog; keep-alives before the first
 * chunk mean the request is queued, bounded by `queueLimitMs`. The caller's abort is thrown as
 * APIUserAbortError; everything else about the stream is an outcome the caller may retry.
 */
export async function streamAttempt(input: AttemptInput): Promise<AttemptOutcome> {
  const { sdk, params, signal } = input;
  if (signal.aborted) throw new APIUserAbortError();
  const controller = new AbortController();
  const abort = () => controller.abort();
  signal.addEventListener('abort', abort, { once: true });
  const clock = new StreamClock(input, abort);
  let headersReceived = false;
  try {
    input.onStatus({ state: 'waiting' });
    const response = await sdk.chat.completions.create(params, { signal: controller.signal }).asResponse();
    headersReceived = true;
    if (!response.body) return { ok: false, failure: { kind: 'dropped' } };
    const contentType = response.headers.get('content-type') ?? '';
    if (!contentType.includes('text/event-stream')) return await wholeBody(response, contentType, input);
    clock.start();
    return await readStream(response.body, input, clock);
  } catch (error) {
    if (signal.aborted) throw new APIUserAbortError();
    if (clock.ended) return { ok: false, failure: { kind: clock.ended } };
    // Before the headers, the SDK's own errors (statuses, connections) tell what happened; after them, any
    // failure to read the body is the connection breaking off.
    if (headersReceived) return { ok: false, failure: { kind: 'dropped' } };
    throw error;
  } finally {
    clock.stop();
    signal.removeEventListener('abort', abort);
  }
}

async function readStream(body: ReadableStream<Uint8Array>, input: AttemptInput, clock: StreamClock): Promise<AttemptOutcome> {
  const reader = new ChunkReader(input.onText);
  let state: LlmStatus['state'] = 'waiting';
  const tell = (next: LlmStatus['state']) => {
    if (next === state) return;
    state = next;
    input.onStatus({ state: next } as LlmStatus);
  };
  let chunks = 0;
  for await (const item of sseItems(body, () => clock.heard())) {
    const frame = frameOf(item);
    if (frame.kind === 'done') break;
    if (frame.kind === 'keep-alive') {
      if (chunks === 0) tell('queued');
      continue;
    }
    if (frame.kind === 'error') return { ok: false, failure: { kind: 'reported', error: frame.error } };
    if (frame.kind === 'garbled') return { ok: false, failure: { kind: 'garbled', sample: frame.sample } };
    if (frame.kind !== 'chunk') continue;
    chunks += 1;
    clock.replying();
    const news = reader.read(frame.chunk);
    if (news.answer) tell('answering');
    else if (news.reasoning) tell('thinking');
  }
  if (clock.ended) return { ok: false, failure: { kind: clock.ended } };
  const reply = reader.reply();
  if (reply === 'no-choices') return { ok: false, failure: { kind: 'no-choices', chunks } };
  if (reply === 'no-finish-reason') return { ok: false, failure: { kind: 'truncated' } };
  return { ok: true, reply };
}

/**
 * A body that is not an event stream: some proxies ignore `stream: true` and send the whole completion
 * as JSON, which is read as one chunk; JSON with an error is that error; anything else (a login page,
 * a web server's index) is named for what it is.
 */
async function wholeBody(response: Response, contentType: string, input: AttemptInput): Promise<AttemptOutcome> {
  const text = await response.text();
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, failure: { kind: 'not-a-stream', contentType: contentType || 'no content type', sample: text.trim().slice(0, 80) } };
  }
  const error = errorIn(value);
  if (error) return { ok: false, failure: { kind: 'reported', error } };
  if (!isRecord(value) || !Array.isArray(value['choices'])) {
    return { ok: false, failure: { kind: 'not-a-stream', contentType: contentType || 'no content type', sample: text.trim().slice(0, 80) } };
  }
  const reader = new ChunkReader(input.onText);
  reader.read(value);
  const reply = reader.reply();
  if (reply === 'no-choices') return { ok: false, failure: { kind: 'no-choices', chunks: 1 } };
  if (reply === 'no-finish-reason') return { ok: false, failure: { kind: 'truncated' } };
  return { ok: true, reply };
}

/**
 * The two timers of a stream: silence (no byte at all for `idleTimeoutMs`) and queueing (keep-alives
 * but no reply for `queueLimitMs`). Either one ends the attempt through `abort` and is remembered.
 */
class StreamClock {
  ended: 'stalled' | 'queued-too-long' | null = null;
  private idle: NodeJS.Timeout | undefined;
  private queue: NodeJS.Timeout | undefined;

  constructor(
    private readonly input: Pick<AttemptInput, 'idleTimeoutMs' | 'queueLimitMs'>,
    private readonly abort: () => void,
  ) {}

  start(): void {
    this.heard();
    this.queue = setTimeout(() => this.end('queued-too-long'), this.input.queueLimitMs);
  }

  heard(): void {
    if (this.ended) return;
    if (this.idle) this.idle.refresh();
    else this.idle = setTimeout(() => this.end('stalled'), this.input.idleTimeoutMs);
  }

  replying(): void {
    clearTimeout(this.queue);
  }

  stop(): void {
    clearTimeout(this.idle);
    clearTimeout(this.queue);
  }

  private end(why: 'stalled' | 'queued-too-long'): void {
    this.ended = why;
    this.stop();
    this.abort();
  }
}
