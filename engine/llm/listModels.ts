import type { LearnedContextWindow } from '../contract/index.js';
import { discoverContextWindow } from './contextWindow/discoverContextWindow.js';
import { llmErrorFrom } from './llmErrorMessages.js';
import { isWebPage, notTheApiMessage, shownUrl } from './messageWording.js';
import { LlmError } from './llmTypes.js';
import { openAiSdk } from './openaiSdk.js';

export interface ListModelsOptions {
  baseUrl: string;
  apiKey: string | null;
  /** The model to look for among the listed ones; empty or absent for none. */
  model?: string;
  /** Default 15 s: a connection test must answer quickly. */
  timeoutMs?: number;
  signal?: AbortSignal;
  fetch?: typeof fetch;
}

export interface ModelListing {
  /** The server's model ids, sorted. */
  models: string[];
  /** Whether `model` is among them; null when no model was named. */
  modelFound: boolean | null;
  /** The model's context window as the server (or the model catalog) gives it; null when no model was named. */
  contextWindow: LearnedContextWindow | null;
}

/**
 * Asks the server for its models (GET /models), and for the named model's context window: the "Test
 * connection" of Settings and the CLI's check before a run. Fails with an LlmError whose message names
 * the server and what to check; a server without the endpoint gets a message of its own, since chat may
 * still work there.
 */
export async function listModels(options: ListModelsOptions): Promise<ModelListing> {
  const { baseUrl, apiKey } = options;
  const model = options.model?.trim() ?? '';
  const sdk = openAiSdk({ baseUrl, apiKey, maxRetries: 0, timeoutMs: options.timeoutMs ?? 15_000, ...(options.fetch ? { fetch: options.fetch } : {}) });
  try {
    // Whole entries, not only ids: vLLM, OpenRouter and llama.cpp tell the context window in them.
    const { data: page, response } = await sdk.models.list(options.signal ? { signal: options.signal } : undefined).withResponse();
    // A web server in front of a wrong base URL answers 200 with its own page, which the SDK reads as an empty list.
    const contentType = response.headers.get('content-type') ?? '';
    if (isWebPage(contentType)) throw new LlmError('garbled', notTheApiMessage({ baseUrl, request: 'GET /models', contentType, expected: 'a model list' }));
    const entries: { id: string }[] = [];
    for await (const entry of page) entries.push(entry);
    const models = entries.map((entry) => entry.id).sort();
    if (model === '') return { models, modelFound: null, contextWindow: null };
    const contextWindow = await discoverContextWindow({
      baseUrl,
      apiKey,
      model,
      listing: entries,
      ...(options.fetch ? { fetch: options.fetch } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    return { models, modelFound: models.includes(model), contextWindow };
  } catch (error) {
    const failure = llmErrorFrom(error, { baseUrl, model, apiKey, maxRetries: 0 }, options.signal?.aborted ?? false);
    if (failure.status === 404) {
      throw new LlmError(
        'server',
        `The model server at ${shownUrl(baseUrl)} has no model list (GET /models answered HTTP 404). ` +
          'Check the base URL: OpenAI-compatible servers usually serve it under /v1.',
        404,
      );
    }
    throw failure;
  }
}
