import { APIUserAbortError, type OpenAI } from 'openai';
import type { ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import { ChunkReader, type StreamedReply } from './chunkReader.js';
import type { LlmStatus } from './llmTypes.js';
import { sseItems, type SseItem } from './sseItems.js';
import { eventStreamIn } from './eventStreamIn.js';
import { errorIn, framesOf, isRecord, type Frame, type ReportedError } from './streamFrames.js';
import type { AttemptText } from './textRelay.js';

export type { StreamedReply };

export interface AttemptInput {
  sdk: OpenAI;
  params: ChatCompletionCreateParamsStreaming;
  /** Headers of this request beside the SDK's own (a server's cache key header). */
  headers: Record<string, string>;
  /** The caller's signal; aborting it ends the attempt at once. */
  signal: AbortSignal;
  /** How long the reply may take to start once the headers are in (servers that send headers at once, then process the prompt). */
  firstByteTimeoutMs: number;
  /** How long the stream may send nothing at all (not even a keep-alive) once the reply has started. */
  idleTimeoutMs: number;
  /** How long the server may keep the request queued (keep-alives only, no reply yet). */
  queueLimitMs: number;
  onText: AttemptText;
  onStatus: (status: LlmStatus) => void;
  /** What the client learned of its server: it leaves a body open after `[DONE]`, so that is not waited for (see readToEnd). */
  server: { holdsBodyOpen: boolean };
}

/** Why an attempt ended without a reply; every kind but `queued-too-long` and `not-a-stream` is worth another attempt. */
export type AttemptFailure =
  | { kind: 'dropped' }
  | { kind: 'stalled' }
  | { kind: 'silent-start' }
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
 * reader loses (keep-alive comments, error frames in several shapes, lines that are not JSON, events
 * split by single newlines, a JSON or HTML body instead of a stream). Until the reply starts, silence is
 * bounded by `firstByteTimeoutMs` and keep-alives (the request queued) by `queueLimitMs`; once it has
 * started, any byte re-arms the `idleTimeoutMs` watchdog. A reply whose finish reason arrived stands even
 * if the connection breaks before `[DONE]`. The caller's abort is thrown as APIUserAbortError; anything
 * else about the stream is an outcome the caller may retry.
 */
export async function streamAttempt(input: AttemptInput): Promise<AttemptOutcome> {
  const { sdk, params, headers, signal } = input;
  if (signal.aborted) throw new APIUserAbortError();
  const controller = new AbortController();
  const abort = () => controller.abort();
  signal.addEventListener('abort', abort, { once: true });
  const clock = new StreamClock(input, abort);
  const reader = new ChunkReader(input.onText);
  let headersReceived = false;
  try {
    input.onStatus({ state: 'waiting' });
    const response = await sdk.chat.completions.create(params, { signal: controller.signal, headers }).asResponse();
    headersReceived = true;
    if (!response.body) return { ok: false, failure: { kind: 'dropped' } };
    const contentType = response.headers.get('content-type') ?? '';
    clock.start();
    const body = contentType.includes('text/event-stream') ? response.body : await eventStreamIn(response.body, clock);
    if (typeof body === 'string') return unlabelledBody(body, contentType, reader);
    return await readStream(sseItems(body, () => clock.heard()), clock, reader, input.onStatus, input.server);
  } catch (error) {
    if (signal.aborted) throw new APIUserAbortError();
    const finished = reader.reply();
    // The reply was complete: a connection that broke before [DONE] takes nothing from it.
    if (headersReceived && typeof finished === 'object') return { ok: true, reply: finished };
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

async function readStream(
  items: AsyncIterable<SseItem>,
  clock: StreamClock,
  reader: ChunkReader,
  onStatus: (status: LlmStatus) => void,
  server: AttemptInput['server'] = { holdsBodyOpen: true },
): Promise<AttemptOutcome> {
  let state: LlmStatus['state'] = 'waiting';
  const tell = (next: LlmStatus['state']) => {
    if (next === state) return;
    state = next;
    onStatus({ state: next } as LlmStatus);
  };
  let chunks = 0;
  const iterator = items[Symbol.asyncIterator]();
  try {
    for (let next = await iterator.next(); next.done !== true; next = await iterator.next()) {
      for (const frame of framesOf(next.value)) {
        const outcome = readFrame(frame, reader, { chunks, started: clock.started });
        if (outcome === 'done') {
          if (!server.holdsBodyOpen) server.holdsBodyOpen = !(await readToEnd(iterator, clock));
          return finish(reader, clock, chunks);
        }
        if (outcome === 'queued') tell('queued');
        else if (outcome !== null && typeof outcome === 'object') return outcome;
        else if (outcome === 'answer' || outcome === 'reasoning' || outcome === 'chunk') {
          chunks += 1;
          if (outcome === 'chunk') continue;
          clock.replying();
          tell(outcome === 'answer' ? 'answering' : 'thinking');
        }
      }
    }
  } finally {
    // Left early (an error frame, say): the rest of the body is not wanted, and the connection goes with it.
    await iterator.return?.();
  }
  return finish(reader, clock, chunks);
}

/** How long the body may stay open after `[DONE]` before the connection is given up on. */
const afterDoneMs = 250;

/**
 * What follows `[DONE]` is read and dropped until the body ends, which it does at once on a well-behaved
 * server: a body read to its end leaves the connection to the next request, where one cancelled midway
 * (its end still on the way) is closed, and the next request pays for a new connection (and TLS
 * handshake). A server that holds the body open gets `afterDoneMs`, once: the reply is complete either
 * way. Returns whether the body ended by itself.
 */
async function readToEnd(iterator: AsyncIterator<SseItem>, clock: StreamClock): Promise<boolean> {
  clock.finishing(afterDoneMs);
  try {
    while ((await iterator.next()).done !== true);
    return true;
  } catch {
    return false;
  }
}

/** A reply ended with `finish_reason: "error"` and no error of its own: the backend gave up, as a server error does (retried). */
const endedWithError: ReportedError = { message: 'the reply ended with finish_reason "error" and no details', type: 'server_error' };

type FrameOutcome = 'done' | 'queued' | 'answer' | 'reasoning' | 'chunk' | null | { ok: false; failure: AttemptFailure };

/** What one frame means for the attempt: the end, a sign of queueing, news of the reply, or a failure. */
function readFrame(frame: Frame, reader: ChunkReader, { chunks, started }: { chunks: number; started: boolean }): FrameOutcome {
  switch (frame.kind) {
    case 'done':
      return 'done';
    case 'keep-alive':
      return chunks === 0 || !started ? 'queued' : null;
    case 'error':
      return { ok: false, failure: { kind: 'reported', error: frame.error } };
    case 'garbled':
      return { ok: false, failure: { kind: 'garbled', sample: frame.sample } };
    case 'ignored':
      return null;
    case 'chunk': {
      const news = reader.read(frame.chunk);
      if (news.failed) return { ok: false, failure: { kind: 'reported', error: endedWithError } };
      return news.answer ? 'answer' : news.reasoning ? 'reasoning' : 'chunk';
    }
  }
}

function finish(reader: ChunkReader, clock: StreamClock, chunks: number): AttemptOutcome {
  const reply = reader.reply();
  if (typeof reply === 'object') return { ok: true, reply };
  if (clock.ended) return { ok: false, failure: { kind: clock.ended } };
  if (reply === 'no-choices') return { ok: false, failure: { kind: 'no-choices', chunks } };
  return { ok: false, failure: { kind: 'truncated' } };
}

/**
 * A whole body that is not an event stream: some proxies ignore `stream: true` and send the whole
 * completion as JSON, which is read as one chunk; JSON with an error is that error; anything else (a
 * login page, a web server's index) is named for what it is.
 */
function unlabelledBody(text: string, contentType: string, reader: ChunkReader): AttemptOutcome {
  const described = contentType || 'no content type';
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, failure: { kind: 'not-a-stream', contentType: described, sample: text.trim().slice(0, 80) } };
  }
  const error = errorIn(value);
  if (error) return { ok: false, failure: { kind: 'reported', error } };
  if (!isRecord(value) || !Array.isArray(value['choices'])) return { ok: false, failure: { kind: 'not-a-stream', contentType: described, sample: text.trim().slice(0, 80) } };
  if (reader.read(value).failed) return { ok: false, failure: { kind: 'reported', error: endedWithError } };
  return finish(reader, StreamClock.finished(), 1);
}

/**
 * The timers of a stream. Until the reply starts (its first text, reasoning or tool call): silence is
 * bounded by the first-byte limit (`silent-start`) and keep-alives by the queue limit. Once it has
 * started: silence by the idle limit (`stalled`). Either ends the attempt through `abort` and is
 * remembered.
 */
class StreamClock {
  ended: 'stalled' | 'silent-start' | 'queued-too-long' | null = null;
  started = false;
  private silence: { timer: NodeJS.Timeout; why: 'stalled' | 'silent-start' } | undefined;
  private queue: NodeJS.Timeout | undefined;

  constructor(
    private readonly input: Pick<AttemptInput, 'idleTimeoutMs' | 'queueLimitMs' | 'firstByteTimeoutMs'>,
    private readonly abort: () => void,
  ) {}

  /** A clock for a body already read whole: nothing left to time. */
  static finished(): StreamClock {
    return new StreamClock({ idleTimeoutMs: 0, queueLimitMs: 0, firstByteTimeoutMs: 0 }, () => {});
  }

  start(): void {
    this.armSilence();
    this.queue = setTimeout(() => this.end('queued-too-long'), this.input.queueLimitMs);
  }

  /** Some bytes arrived: a sign of life (before the reply starts, keep-alives; the queue limit bounds how long those may go on). */
  heard(): void {
    this.armSilence();
  }

  replying(): void {
    if (this.started) return;
    this.started = true;
    clearTimeout(this.queue);
    this.armSilence();
  }

  /** The reply is complete: no limit applies any more, only `graceMs` for the body to end before it is cut off. */
  finishing(graceMs: number): void {
    this.stop();
    this.queue = setTimeout(this.abort, graceMs).unref();
  }

  stop(): void {
    clearTimeout(this.silence?.timer);
    this.silence = undefined;
    clearTimeout(this.queue);
  }

  /** Restarts the silence limit; the same limit's timer is restarted in place, as every chunk of a stream restarts it. */
  private armSilence(): void {
    if (this.ended) return;
    const [limit, why] = this.started ? [this.input.idleTimeoutMs, 'stalled' as const] : [this.input.firstByteTimeoutMs, 'silent-start' as const];
    if (this.silence?.why === why) {
      this.silence.timer.refresh();
      return;
    }
    clearTimeout(this.silence?.timer);
    this.silence = { timer: setTimeout(() => this.end(why), limit), why };
  }

  private end(why: 'stalled' | 'silent-start' | 'queued-too-long'): void {
    this.ended = why;
    this.stop();
    this.abort();
  }
}
