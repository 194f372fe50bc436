import type { ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { StreamCut } from './faults.js';

export interface EventStreamOptions {
  /** Each SSE frame, whole (`data: …\n\n`, or another field a server uses). */
  frames: readonly string[];
  delayMs: number;
  cut: StreamCut | null;
  /** SSE comments sent before the first frame, as a server does while the request waits in its queue. */
  queued?: { comments: number; everyMs?: number; text?: string } | undefined;
  /** `text/event-stream` unless a server labels its stream otherwise. */
  contentType?: string;
  /** Each frame written in two pieces, the first this many bytes long, apart in time: a chunk boundary inside `data:`. */
  splitFramesAt?: number;
}

/** One server-sent event exactly as OpenAI frames it. */
export function sseFrame(data: string): string {
  return `data: ${data}\n\n`;
}

/** Resolves once the bytes reach the socket, so a later destroy() cannot swallow them. */
function write(response: ServerResponse, data: string): Promise<void> {
  return new Promise((resolve) => response.write(data, () => resolve()));
}

/**
 * Streams the frames then `data: [DONE]`, after any keep-alive comments. A `drop` cut destroys the
 * socket after `afterChunks` frames; a `stall` cut leaves the response open and silent (close() or the
 * client ends it); an `after-done` cut ends the body apart from `[DONE]`, later or never.
 */
export async function writeEventStream(response: ServerResponse, { frames, delayMs, cut, queued, contentType = 'text/event-stream', splitFramesAt }: EventStreamOptions): Promise<void> {
  response.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-cache', connection: 'keep-alive' });
  response.flushHeaders();
  for (let count = 0; queued && count < queued.comments; count++) {
    if (count > 0 || delayMs > 0) await sleep(queued.everyMs ?? 20);
    if (response.destroyed) return;
    await write(response, `: ${queued.text ?? 'keep-alive'}\n\n`);
  }
  const sent = cut === null || cut.type === 'after-done' ? frames : frames.slice(0, cut.afterChunks);
  for (const frame of sent) {
    if (delayMs > 0) await sleep(delayMs);
    if (response.destroyed) return;
    if (splitFramesAt === undefined) {
      await write(response, frame);
      continue;
    }
    await write(response, frame.slice(0, splitFramesAt));
    await sleep(Math.max(delayMs, 20));
    if (response.destroyed) return;
    await write(response, frame.slice(splitFramesAt));
  }
  if (cut?.type === 'drop') {
    response.destroy();
    return;
  }
  if (cut?.type === 'stall' || response.destroyed) return;
  if (cut?.type !== 'after-done') {
    response.end(sseFrame('[DONE]'));
    return;
  }
  await write(response, sseFrame('[DONE]'));
  if (cut.endAfterMs === null) return;
  await sleep(cut.endAfterMs);
  if (!response.destroyed) response.end();
}
