import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { ChatCompletionCreateParams } from 'openai/resources/chat/completions';
import { handleChatCompletion, type ChatRouteContext } from './chatRoute.js';
import { invalidApiKey, invalidUrl, scriptFailure, unparsableBody } from './errors.js';
import { sendError, sendHtml, sendJson } from './respond.js';
import { PromptCache } from './promptCache.js';
import { answerServerInfo } from './serverInfo.js';
import { TurnSource } from './script.js';
import type { FakeLlmOptions, RecordedRequest, ScriptedTurn } from './types.js';

/** A running fake OpenAI-compatible server on 127.0.0.1. */
export interface FakeLlm {
  /** e.g. `http://127.0.0.1:54321/v1`, ready for `new OpenAI({ baseURL })`. */
  readonly baseUrl: string;
  /** Every request received, in order, whatever its outcome. */
  readonly requests: RecordedRequest[];
  /** The fake's own failures (script exhausted, script threw); empty in a well-scripted test. */
  readonly scriptErrors: string[];
  /** Bodies of POST /v1/chat/completions as the client sent them (not validated), in order. */
  chatRequests(): ChatCompletionCreateParams[];
  /** The `prompt_cache_key` of each chat request, in order; null where there was none. */
  promptCacheKeys(): (string | null)[];
  /** The simulated prompt cache and what it reported, when started with `promptCache`; else null. */
  readonly promptCache: PromptCache | null;
  enqueue(...turns: ScriptedTurn[]): void;
  /** Connections clients have opened so far, and how many of them are still open (a client closes one it gives up on mid-reply). */
  connections(): { opened: number; open: number };
  /** Stops listening and destroys every open socket, so a stalled stream cannot hang a test. Idempotent. */
  close(): Promise<void>;
}

const DEFAULT_MODELS = ['fake-model'];
const CHAT_PATH = '/v1/chat/completions';
const MODELS_PATH = '/v1/models';

type ParsedBody = { ok: true; value: unknown } | { ok: false };

async function readBody(request: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of request) parts.push(part as Buffer);
  return Buffer.concat(parts).toString('utf8');
}

function parseBody(raw: string): ParsedBody {
  if (raw.trim() === '') return { ok: true, value: null };
  try {
    return { ok: true, value: JSON.parse(raw) as unknown };
  } catch {
    return { ok: false };
  }
}

function isAuthorised(request: IncomingMessage, apiKey: string | undefined): boolean {
  return apiKey === undefined || request.headers.authorization === `Bearer ${apiKey}`;
}

function modelList(models: readonly string[], created: number): unknown {
  return {
    object: 'list',
    data: models.map((id) => ({ id, object: 'model', created, owned_by: 'fake-llm' })),
  };
}

export async function startFakeLlm(options: FakeLlmOptions = {}): Promise<FakeLlm> {
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const context: ChatRouteContext = {
    turns: new TurnSource(options.script),
    models: options.models ?? null,
    toolsUnsupported: options.toolsUnsupported ?? false,
    requireThoughtSignatures: options.requireThoughtSignatures ?? false,
    requireReasoningBack: options.requireReasoningBack ?? false,
    cacheHints: options.cacheHints ?? 'accept',
    promptCache: options.promptCache ? new PromptCache(options.promptCache === true ? {} : options.promptCache) : null,
    scriptErrors: [],
  };
  const startedAt = Math.floor(Date.now() / 1000);

  async function route(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const method = request.method ?? 'GET';
    const path = new URL(request.url ?? '/', 'http://fake-llm').pathname;
    const body = parseBody(await readBody(request));
    const recorded: RecordedRequest = {
      method,
      path,
      headers: request.headers,
      body: body.ok ? body.value : null,
      receivedAt: Date.now(),
    };
    if (options.keepRequests !== false) requests.push(recorded);
    response.setHeader('x-request-id', `req_fake_${requests.length}`);
    if (!isAuthorised(request, options.apiKey)) return sendError(response, invalidApiKey());
    if (options.modelListAsWebPage && method === 'GET' && path === MODELS_PATH) return sendHtml(response);
    const info = { method, path, body: recorded.body, models: options.models ?? DEFAULT_MODELS, created: startedAt };
    if (options.serverInfo && answerServerInfo(options.serverInfo, info, response)) return;
    if (method === 'GET' && path === MODELS_PATH) {
      return sendJson(response, 200, modelList(options.models ?? DEFAULT_MODELS, startedAt));
    }
    if (method !== 'POST' || path !== CHAT_PATH) return sendError(response, invalidUrl(method, path));
    if (!body.ok) return sendError(response, unparsableBody());
    await handleChatCompletion(context, recorded, response);
  }

  const server = createServer((request, response) => {
    route(request, response).catch((error: unknown) => {
      const message = `fake LLM failed to answer ${request.method} ${request.url}: ${String(error)}`;
      context.scriptErrors.push(message);
      if (response.headersSent) response.destroy();
      else sendError(response, scriptFailure(message));
    });
  });
  let connections = 0;
  server.on('connection', (socket) => {
    connections += 1;
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  const closeServer = () =>
    new Promise<void>((resolve, reject) => {
      server.close((error) => (error ? reject(error) : resolve()));
      for (const socket of sockets) socket.destroy();
    });

  const chatRequests = () =>
    requests
      .filter((request) => request.method === 'POST' && request.path === CHAT_PATH && request.body !== null)
      .map((request) => request.body as ChatCompletionCreateParams);
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    scriptErrors: context.scriptErrors,
    chatRequests,
    promptCacheKeys: () => chatRequests().map((body) => body.prompt_cache_key ?? null),
    promptCache: context.promptCache,
    enqueue: (...turns) => context.turns.enqueue(turns),
    connections: () => ({ opened: connections, open: sockets.size }),
    close: () => (closing ??= closeServer()),
  };
}
