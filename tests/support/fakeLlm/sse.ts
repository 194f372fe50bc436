import type { ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { WireChunk } from './chunks.js';
import type { StreamCut } from './faults.js';

export interface EventStreamOptions {
  chunks: readonly WireChunk[];
  delayMs: number;
  cut: StreamCut | null;
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
 * Streams the chunks then `data: [DONE]`. A `drop` cut destroys the socket after `afterChunks`
 * chunks; a `stall` cut leaves the response open and silent (close() or the client ends it).
 */
export async function writeEventStream(response: ServerResponse, { chunks, delayMs, cut }: EventStreamOptions): Promise<void> {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  response.flushHeaders();
  const sent = cut === null ? chunks : chunks.slice(0, cut.afterChunks);
  for (const chunk of sent) {
    if (delayMs > 0) await sleep(delayMs);
    if (response.destroyed) return;
    await write(response, sseFrame(JSON.stringify(chunk)));
  }
  if (cut?.type === 'drop') {
    response.destroy();
    return;
  }
  if (cut?.type === 'stall' || response.destroyed) return;
  response.end(sseFrame('[DONE]'));
}
