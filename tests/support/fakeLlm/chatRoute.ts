import type { ServerResponse } from 'node:http';
import { completionBody, streamChunks, type ResponseMeta } from './chunks.js';
import { missingChatParameters, modelNotFound, scriptFailure, toolsUnsupported } from './errors.js';
import { httpFaultResponse, streamCut } from './faults.js';
import { planTurn, type PlannedTurn } from './plan.js';
import { sendError, sendJson } from './respond.js';
import type { TurnSource } from './script.js';
import { writeEventStream } from './sse.js';
import type { RecordedRequest } from './types.js';

export interface ChatRouteContext {
  turns: TurnSource;
  models: readonly string[] | null;
  toolsUnsupported: boolean;
  /** Where the fake's own failures are kept so a test can assert there were none. */
  scriptErrors: string[];
}

interface ChatRequest {
  model: string;
  stream: boolean;
  includeUsage: boolean;
  messages: readonly unknown[];
  hasTools: boolean;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Only the fields the fake acts on; the rest of the body is recorded untouched. */
function readChatRequest(body: unknown): ChatRequest | null {
  if (!isRecord(body) || typeof body['model'] !== 'string' || !Array.isArray(body['messages'])) return null;
  const streamOptions = body['stream_options'];
  return {
    model: body['model'],
    stream: body['stream'] === true,
    includeUsage: isRecord(streamOptions) && streamOptions['include_usage'] === true,
    messages: body['messages'],
    hasTools: Array.isArray(body['tools']) && body['tools'].length > 0,
  };
}

function answerWithoutStream(response: ServerResponse, turn: PlannedTurn, meta: ResponseMeta): void {
  if (turn.fault?.type === 'drop-mid-stream') {
    response.destroy();
    return;
  }
  if (turn.fault?.type === 'stall-after-headers') {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.flushHeaders();
    return;
  }
  sendJson(response, 200, completionBody(turn, meta));
}

/**
 * POST /v1/chat/completions. Auth, model and tool-support checks come first and consume no turn;
 * every other answer, faults included, takes the next scripted turn.
 */
export async function handleChatCompletion(
  context: ChatRouteContext,
  recorded: RecordedRequest,
  response: ServerResponse,
): Promise<void> {
  const request = readChatRequest(recorded.body);
  if (request === null) return sendError(response, missingChatParameters());
  if (context.models !== null && !context.models.includes(request.model)) {
    return sendError(response, modelNotFound(request.model));
  }
  if (context.toolsUnsupported && request.hasTools) return sendError(response, toolsUnsupported(request.model));
  const next = await context.turns.next(recorded);
  if (!next.ok) {
    context.scriptErrors.push(next.error);
    return sendError(response, scriptFailure(next.error));
  }
  const turn = planTurn({ turn: next.turn, turnNumber: next.index, requestMessages: request.messages });
  const httpFault = httpFaultResponse(turn.fault, request.model);
  if (httpFault !== null) return sendError(response, httpFault);
  const meta: ResponseMeta = {
    id: `chatcmpl-fake-${next.index}`,
    created: Math.floor(recorded.receivedAt / 1000),
    model: request.model,
  };
  if (!request.stream) return answerWithoutStream(response, turn, meta);
  const chunks = streamChunks(turn, meta, request.includeUsage);
  await writeEventStream(response, { chunks, delayMs: turn.delayMs, cut: streamCut(turn.fault, chunks.length) });
}
