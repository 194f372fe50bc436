import type { ServerResponse } from 'node:http';
import { sendJson } from './respond.js';
import type { ServerInfo } from './types.js';

/** The request as server.ts read it. */
export interface InfoRequest {
  method: string;
  path: string;
  body: unknown;
  models: readonly string[];
  /** Unix seconds, for `created`. */
  created: number;
}

type Route = (info: ServerInfo, request: InfoRequest, response: ServerResponse) => boolean;

/**
 * Answers the model list and the own endpoints of a vLLM, OpenRouter, LM Studio, llama.cpp or Ollama
 * server in their documented shapes; false when the request is not one of them (server.ts answers it).
 */
export function answerServerInfo(info: ServerInfo, request: InfoRequest, response: ServerResponse): boolean {
  if (request.method === 'GET' && request.path === '/v1/models') {
    sendJson(response, 200, { object: 'list', data: request.models.map((id) => listed[info.kind](id, info, request.created)) });
    return true;
  }
  if (!isOwnEndpoint(info, request)) return false;
  if (info.stall) return true;
  if (info.redirectTo) {
    response.writeHead(307, { location: `${info.redirectTo}${request.path}` });
    response.end();
    return true;
  }
  return routes[info.kind](info, request, response);
}

function isOwnEndpoint(info: ServerInfo, { method, path }: InfoRequest): boolean {
  switch (info.kind) {
    case 'ollama':
      return (method === 'POST' && path === '/api/show') || (method === 'GET' && path === '/api/ps');
    case 'lmstudio':
      return method === 'GET' && path.startsWith('/api/v0/models/');
    case 'llamacpp':
      return method === 'GET' && path === '/props';
    case 'vllm':
    case 'openrouter':
      return false;
  }
}

/** One entry of GET /v1/models, as each server writes it. */
const listed: Record<ServerInfo['kind'], (id: string, info: ServerInfo, created: number) => unknown> = {
  // vllm/entrypoints/openai/protocol.py ModelCard
  vllm: (id, info, created) => ({
    id,
    object: 'model',
    created,
    owned_by: 'vllm',
    root: id,
    parent: null,
    max_model_len: info.servedWindow ?? info.modelWindow,
    permission: [{ id: `modelperm-${id}`, object: 'model_permission', created, allow_sampling: true, organization: '*', group: null, is_blocking: false }],
  }),
  // openrouter.ai/api/v1/models
  openrouter: (id, info, created) => ({
    id,
    canonical_slug: id,
    name: id,
    created,
    description: 'A fake model.',
    context_length: info.modelWindow,
    architecture: { modality: 'text->text', input_modalities: ['text'], output_modalities: ['text'], tokenizer: 'Other', instruct_type: null },
    pricing: { prompt: '0.000001', completion: '0.000002', request: '0', image: '0' },
    top_provider: { context_length: info.servedWindow ?? info.modelWindow, max_completion_tokens: 16_384, is_moderated: false },
    per_request_limits: null,
    supported_parameters: ['tools', 'tool_choice', 'max_tokens', 'temperature'],
  }),
  // LM Studio's OpenAI-compatible list names no window.
  lmstudio: (id) => ({ id, object: 'model', owned_by: 'organization_owner' }),
  // tools/server/README.md, GET /v1/models: the trained length only.
  llamacpp: (id, info, created) => ({
    id,
    object: 'model',
    created,
    owned_by: 'llamacpp',
    meta: { vocab_type: 2, n_vocab: 128_256, n_ctx_train: info.modelWindow, n_embd: 4096, n_params: 8_030_261_312, size: 4_912_898_304 },
  }),
  // Ollama's /v1/models: owned_by is the namespace, "library" for the official models.
  ollama: (id, _info, created) => ({ id, object: 'model', created, owned_by: 'library' }),
};

const routes: Record<ServerInfo['kind'], Route> = {
  vllm: () => false,
  openrouter: () => false,
  ollama: (info, request, response) => (request.path === '/api/show' ? ollamaShow(info, request, response) : ollamaPs(info, request, response)),
  lmstudio: (info, request, response) => {
    const id = decodeURIComponent(request.path.slice('/api/v0/models/'.length));
    if (!request.models.includes(id)) sendJson(response, 404, { error: `Model "${id}" not found` });
    else sendJson(response, 200, lmStudioModel(id, info));
    return true;
  },
  llamacpp: (info, request, response) => {
    sendJson(response, 200, {
      default_generation_settings: { id: 0, id_task: -1, n_ctx: info.servedWindow ?? info.modelWindow, speculative: false, is_processing: false, params: { n_predict: -1, temperature: 0.8 } },
      total_slots: 1,
      model_path: `../models/${request.models[0] ?? 'model'}.gguf`,
      chat_template: '{{ messages }}',
      build_info: 'b4000-fake',
    });
    return true;
  },
};

/** docs/api.md "Show model information": `parameters` is the Modelfile's PARAMETER lines, padded. */
function ollamaShow(info: ServerInfo, request: InfoRequest, response: ServerResponse): boolean {
  const name = typeof request.body === 'object' && request.body !== null ? (request.body as { model?: unknown }).model : undefined;
  if (typeof name !== 'string' || !ollamaNames(request.models).has(name)) {
    sendJson(response, 404, { error: `model '${String(name)}' not found` });
    return true;
  }
  const parameters = [...(info.numCtx ? [`num_ctx                        ${info.numCtx}`] : []), 'stop                           "<|eot_id|>"'].join('\n');
  sendJson(response, 200, {
    license: 'LLAMA 3.1 COMMUNITY LICENSE AGREEMENT',
    modelfile: `FROM /root/.ollama/models/blobs/sha256-fake\n${parameters}`,
    parameters,
    template: '{{ .Prompt }}',
    details: { parent_model: '', format: 'gguf', family: 'llama', families: ['llama'], parameter_size: '8.0B', quantization_level: 'Q4_K_M' },
    model_info: {
      'general.architecture': 'llama',
      'general.parameter_count': 8_030_261_312,
      'llama.block_count': 32,
      'llama.context_length': info.modelWindow,
      'llama.embedding_length': 4096,
    },
    capabilities: ['completion', 'tools'],
    modified_at: '2025-01-01T00:00:00Z',
  });
  return true;
}

/** GET /api/ps: the loaded models, each with the context it was loaded with. */
function ollamaPs(info: ServerInfo, request: InfoRequest, response: ServerResponse): boolean {
  const loaded = info.servedWindow ? request.models : [];
  sendJson(response, 200, {
    models: loaded.map((name) => ({
      name,
      model: name,
      size: 6_591_830_464,
      digest: 'fake',
      details: { parent_model: '', format: 'gguf', family: 'llama', families: ['llama'], parameter_size: '8.0B', quantization_level: 'Q4_K_M' },
      expires_at: '2099-01-01T00:00:00Z',
      size_vram: 5_333_539_264,
      context_length: info.servedWindow,
    })),
  });
  return true;
}

/** Ollama answers to a name with or without its `:latest` tag. */
function ollamaNames(models: readonly string[]): Set<string> {
  return new Set(models.flatMap((name) => (name.endsWith(':latest') ? [name, name.slice(0, -':latest'.length)] : [name])));
}

function lmStudioModel(id: string, info: ServerInfo): unknown {
  return {
    id,
    object: 'model',
    type: 'llm',
    publisher: 'lmstudio-community',
    arch: 'llama',
    compatibility_type: 'gguf',
    quantization: 'Q4_K_M',
    state: info.servedWindow ? 'loaded' : 'not-loaded',
    max_context_length: info.modelWindow,
    ...(info.servedWindow ? { loaded_context_length: info.servedWindow } : {}),
  };
}
