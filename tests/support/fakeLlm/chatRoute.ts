import type { ServerResponse } from 'node:http';
import { refusalOfHints, type CacheHintMode } from './cacheHints.js';
import { completionBody, streamChunks, type ResponseMeta } from './chunks.js';
import { geminiError, missingChatParameters, modelNotFound, scriptFailure, toolsUnsupported } from './errors.js';
import { httpFaultResponse, streamCut, streamFrames } from './faults.js';
import { planTurn, type PlannedTurn } from './plan.js';
import type { PromptCache } from './promptCache.js';
import { sendError, sendHtml, sendJson } from './respond.js';
import type { TurnSource } from './script.js';
import { writeEventStream } from './sse.js';
import type { RecordedRequest } from './types.js';

export interface ChatRouteContext {
  turns: TurnSource;
  models: readonly string[] | null;
  toolsUnsupported: boolean;
  requireThoughtSignatures: boolean;
  requireReasoningBack: boolean;
  cacheHints: CacheHintMode;
  /** Reports repeated prompt prefixes as cached tokens; null: no caching. */
  promptCache: PromptCache | null;
  /** Where the fake's own failures are kept so a test can assert there were none. */
  scriptErrors: string[];
}

interface ChatRequest {
  model: string;
  stream: boolean;
  includeUsage: boolean;
  messages: readonly unknown[];
  tools: readonly unknown[];
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
    tools: Array.isArray(body['tools']) ? body['tools'] : [],
    hasTools: Array.isArray(body['tools']) && body['tools'].length > 0,
  };
}

/** A web server's page where the API should be: what a wrong base URL or a proxy's login page gives. */
/** Whether an assistant message's tool call came back without the thought signature Gemini streamed with it. */
function lacksThoughtSignature(messages: readonly unknown[]): boolean {
  return messages.some((message) => {
    if (!isRecord(message) || message['role'] !== 'assistant' || !Array.isArray(message['tool_calls'])) return false;
    return message['tool_calls'].some((call) => {
      const extra = isRecord(call) ? call['extra_content'] : undefined;
      const google = isRecord(extra) ? extra['google'] : undefined;
      return !isRecord(google) || typeof google['thought_signature'] !== 'string';
    });
  });
}

function lacksReasoning(message: unknown): boolean {
  return isRecord(message) && message['role'] === 'assistant' && Array.isArray(message['tool_calls']) && typeof message['reasoning_content'] !== 'string';
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
 * POST /v1/chat/completions. Auth, model, cache-hint and tool-support checks come first and consume no turn;
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
  const refusedHints = refusalOfHints(recorded.body, context.cacheHints);
  if (refusedHints !== null) return sendError(response, refusedHints);
  if (context.toolsUnsupported && request.hasTools) return sendError(response, toolsUnsupported(request.model));
  const withoutReasoning = context.requireReasoningBack ? request.messages.findIndex(lacksReasoning) : -1;
  if (withoutReasoning >= 0) {
    return sendError(response, { status: 400, body: { error: { message: `Missing \`reasoning_content\` field in the assistant message at message index ${withoutReasoning}. For more information, please refer to https://api-docs.deepseek.com/guides/thinking_mode#tool-calls`, type: 'invalid_request_error', param: null, code: 'invalid_request_error' } } });
  }
  if (context.requireThoughtSignatures && lacksThoughtSignature(request.messages)) {
    return sendError(response, geminiError(400, 'Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly.'));
  }
  const next = await context.turns.next(recorded);
  if (!next.ok) {
    context.scriptErrors.push(next.error);
    return sendError(response, scriptFailure(next.error));
  }
  const planned = planTurn({ turn: next.turn, turnNumber: next.index, requestMessages: request.messages, requestTools: request.tools });
  const httpFault = httpFaultResponse(planned.fault, request.model);
  if (httpFault !== null) return sendError(response, httpFault);
  // Accepted, and never answered: the socket stays open until the client gives up or close() ends it.
  if (planned.fault?.type === 'no-response') return;
  const turn = context.promptCache ? { ...planned, usage: await context.promptCache.usage(request, planned) } : planned;
  const meta: ResponseMeta = {
    id: `chatcmpl-fake-${next.index}`,
    created: Math.floor(recorded.receivedAt / 1000),
    model: request.model,
  };
  if (!request.stream) return answerWithoutStream(response, turn, meta);
  if (turn.fault?.type === 'html-page') return sendHtml(response);
  const chunks = streamChunks(turn, meta, request.includeUsage);
  const framed = streamFrames(chunks, turn.fault);
  const frames = turn.quirks.has('single-newline-events') ? framed.map((frame) => frame.replace(/\n\n$/, '\n')) : framed;
  const contentType = turn.quirks.has('stream-as-text-plain') ? 'text/plain; charset=utf-8' : turn.quirks.has('stream-as-json') ? 'application/json' : 'text/event-stream';
  const splitFramesAt = turn.quirks.has('frames-split-in-field') ? 2 : undefined;
  await writeEventStream(response, { frames, delayMs: turn.delayMs, cut: streamCut(turn.fault, frames.length), queued: next.turn.queued, contentType, ...(splitFramesAt ? { splitFramesAt } : {}) });
}
