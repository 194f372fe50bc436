import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { discoverContextWindow } from '../../../../engine/llm/contextWindow/discoverContextWindow.js';
import type { FakeLlm } from '../../../support/fakeLlm/index.js';
import { useFakeLlmStarter } from '../../../support/fakeLlm/useFakeLlm.js';

const asked = (llm: FakeLlm) => llm.requests.map(({ method, path }) => `${method} ${path}`);

describe('discoverContextWindow', () => {
  const startLlm = useFakeLlmStarter();

  describe('from the model list', () => {
    it('vLLM: max_model_len, in one request', async () => {
      const llm = await startLlm({ models: ['Qwen/Qwen2.5-Coder-32B-Instruct'], serverInfo: { kind: 'vllm', modelWindow: 131_072, servedWindow: 32_768 } });

      expect(await discoverContextWindow({ baseUrl: llm.baseUrl, apiKey: null, model: 'Qwen/Qwen2.5-Coder-32B-Instruct' })).toEqual({
        tokens: 32_768,
        source: 'server',
        detail: 'vLLM max_model_len',
      });
      expect(asked(llm)).toEqual(['GET /v1/models']);
    });

    it('OpenRouter: context_length of the model named', async () => {
      const llm = await startLlm({ models: ['openai/gpt-4o-mini', 'qwen/qwen3-coder'], serverInfo: { kind: 'openrouter', modelWindow: 262_144, servedWindow: 131_072 } });

      expect(await discoverContextWindow({ baseUrl: llm.baseUrl, apiKey: 'sk-or-test', model: 'qwen/qwen3-coder' })).toEqual({
        tokens: 262_144,
        source: 'server',
        detail: 'OpenRouter context_length',
      });
      expect(asked(llm)).toEqual(['GET /v1/models']);
    });

    it('uses a listing the caller already has, without asking again', async () => {
      const listing = [{ id: 'model.gguf', object: 'model', owned_by: 'llamacpp', meta: { n_ctx: 16_384, n_ctx_train: 131_072 } }];

      expect(await discoverContextWindow({ baseUrl: 'http://127.0.0.1:9/v1', apiKey: null, model: 'model.gguf', listing })).toEqual({
        tokens: 16_384,
        source: 'server',
        detail: 'llama.cpp n_ctx',
      });
    });
  });

  describe('from the server’s own API', () => {
    it('LM Studio: the loaded context, naming what the model supports', async () => {
      const llm = await startLlm({ models: ['google/gemma-3-12b'], serverInfo: { kind: 'lmstudio', modelWindow: 131_072, servedWindow: 8192 } });

      expect(await discoverContextWindow({ baseUrl: llm.baseUrl, apiKey: null, model: 'google/gemma-3-12b' })).toEqual({
        tokens: 8192,
        source: 'server',
        detail: 'LM Studio loaded_context_length; the model supports 131,072',
      });
      expect(asked(llm)).toEqual(['GET /v1/models', 'GET /api/v0/models/google/gemma-3-12b']);
    });

    it('LM Studio: the model’s own length when it is not loaded yet', async () => {
      const llm = await startLlm({ models: ['qwen2-vl-7b-instruct'], serverInfo: { kind: 'lmstudio', modelWindow: 32_768 } });

      expect(await discoverContextWindow({ baseUrl: llm.baseUrl, apiKey: null, model: 'qwen2-vl-7b-instruct' })).toMatchObject({
        tokens: 32_768,
        detail: 'LM Studio max_context_length; the model is not loaded yet',
      });
    });

    it('llama.cpp: n_ctx from /props at the server’s root, asked first since the list says llamacpp', async () => {
      const llm = await startLlm({ models: ['Meta-Llama-3.1-8B-Instruct-Q4_K_M.gguf'], serverInfo: { kind: 'llamacpp', modelWindow: 131_072, servedWindow: 4096 } });

      expect(await discoverContextWindow({ baseUrl: llm.baseUrl, apiKey: null, model: 'Meta-Llama-3.1-8B-Instruct-Q4_K_M.gguf' })).toEqual({
        tokens: 4096,
        source: 'server',
        detail: 'llama.cpp n_ctx',
      });
      expect(asked(llm)).toEqual(['GET /v1/models', 'GET /props']);
    });

    it('Ollama: the Modelfile’s num_ctx, and where the server cuts prompts', async () => {
      const llm = await startLlm({ models: ['llama3.1:8b'], serverInfo: { kind: 'ollama', modelWindow: 131_072, numCtx: 8192 } });

      const window = await discoverContextWindow({ baseUrl: llm.baseUrl, apiKey: null, model: 'llama3.1:8b' });

      expect(window).toMatchObject({ tokens: 8192, source: 'server', detail: 'Ollama num_ctx; the model supports 131,072', serverCutsAt: 8192 });
      expect(window.warning).toBe(
        'The Ollama server runs llama3.1:8b at 8,192 tokens of context and silently drops the start of longer prompts. ' +
          'To give it more, start Ollama with OLLAMA_CONTEXT_LENGTH set, or set PARAMETER num_ctx in a Modelfile, to up to 131,072, what the model supports.',
      );
      expect(llm.requests.find((request) => request.path === '/api/show')?.body).toEqual({ model: 'llama3.1:8b' });
      expect(asked(llm)).toEqual(['GET /v1/models', 'POST /api/show']);
    });

    it('Ollama: the context of the loaded model, from /api/ps, when the Modelfile sets none', async () => {
      const llm = await startLlm({ models: ['qwen2.5-coder:14b'], serverInfo: { kind: 'ollama', modelWindow: 32_768, servedWindow: 16_384 } });

      expect(await discoverContextWindow({ baseUrl: llm.baseUrl, apiKey: null, model: 'qwen2.5-coder:14b' })).toMatchObject({
        tokens: 16_384,
        detail: 'Ollama loaded context; the model supports 32,768',
        serverCutsAt: 16_384,
      });
      expect(asked(llm)).toEqual(['GET /v1/models', 'POST /api/show', 'GET /api/ps']);
    });

    it('Ollama: the server’s default assumed for a model not loaded, never more than the model supports', async () => {
      const llm = await startLlm({ models: ['llama3.2:latest'], serverInfo: { kind: 'ollama', modelWindow: 131_072 } });
      const small = await startLlm({ models: ['tiny:latest'], serverInfo: { kind: 'ollama', modelWindow: 2048 } });

      expect(await discoverContextWindow({ baseUrl: llm.baseUrl, apiKey: null, model: 'llama3.2' })).toMatchObject({
        tokens: 4096,
        detail: "Ollama's default context, assumed; the model supports 131,072",
        serverCutsAt: 4096,
      });
      const tiny = await discoverContextWindow({ baseUrl: small.baseUrl, apiKey: null, model: 'tiny' });
      expect(tiny).toEqual({ tokens: 2048, source: 'server', detail: "Ollama's default context, assumed" });
    });

    it('a model the server does not know falls back to the model catalog', async () => {
      const llm = await startLlm({ models: ['llama3.1:8b'], serverInfo: { kind: 'ollama', modelWindow: 131_072 } });

      expect(await discoverContextWindow({ baseUrl: llm.baseUrl, apiKey: null, model: 'gpt-4o' })).toMatchObject({ tokens: 128_000, source: 'table' });
    });
  });

  describe('without the server’s word', () => {
    it('the model catalog, after the server’s probes answered nothing', async () => {
      const llm = await startLlm({ models: ['gpt-4.1-mini'] });

      expect(await discoverContextWindow({ baseUrl: llm.baseUrl, apiKey: null, model: 'gpt-4.1-mini' })).toEqual({
        tokens: 1_000_000,
        source: 'table',
        detail: 'the model catalog (openai gpt-4.1-mini)',
      });
      expect(asked(llm)).toEqual(['GET /v1/models', 'POST /api/show', 'GET /api/v0/models/gpt-4.1-mini', 'GET /props']);
    });

    it('a cautious 8,192 for a model nobody knows', async () => {
      const llm = await startLlm();

      expect(await discoverContextWindow({ baseUrl: llm.baseUrl, apiKey: null, model: 'fake-model' })).toEqual({
        tokens: 8192,
        source: 'default',
        detail: 'the default of 8,192: the server does not say, and the model is not a known one',
      });
    });

    it('the default, saying the server answered a web page where its model list should be, and asking it nothing more', async () => {
      const llm = await startLlm({ modelListAsWebPage: true });

      expect(await discoverContextWindow({ baseUrl: llm.baseUrl, apiKey: null, model: 'fake-model' })).toEqual({
        tokens: 8192,
        source: 'default',
        detail: 'the default of 8,192: the server answered GET /models with a web page (HTML), not a model list; check the base URL',
      });
      expect(asked(llm)).toEqual(['GET /v1/models']);
    });

    it('Settings wins, and nothing is asked', async () => {
      const llm = await startLlm({ serverInfo: { kind: 'vllm', modelWindow: 32_768 } });

      expect(await discoverContextWindow({ baseUrl: llm.baseUrl, apiKey: null, model: 'fake-model', configured: 65_536 })).toEqual({
        tokens: 65_536,
        source: 'settings',
        detail: 'Settings',
      });
      expect(llm.requests).toEqual([]);
    });
  });

  it('a server that hangs is given up on after one probe’s time, and not asked again', async () => {
    const llm = await startLlm({ models: ['llama3.1:8b'], serverInfo: { kind: 'ollama', modelWindow: 131_072, stall: true } });
    const started = Date.now();

    const window = await discoverContextWindow({ baseUrl: llm.baseUrl, apiKey: null, model: 'llama3.1:8b', timeoutMs: 300 });

    expect(window).toMatchObject({ tokens: 8192, source: 'default' });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(asked(llm)).toEqual(['GET /v1/models', 'POST /api/show']);
  });

  it('a server that answers nothing at all costs one probe’s time', async () => {
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    const started = Date.now();
    try {
      const window = await discoverContextWindow({ baseUrl: `http://127.0.0.1:${port}/v1`, apiKey: null, model: 'codestral-latest', timeoutMs: 300 });

      expect(window).toMatchObject({ tokens: 256_000, source: 'table' });
      expect(Date.now() - started).toBeLessThan(1500);
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('sends the API key to the base URL’s server only: a redirect elsewhere is not followed', async () => {
    const elsewhere = await startLlm({ models: ['llama3.1:8b'], serverInfo: { kind: 'ollama', modelWindow: 131_072, numCtx: 8192 } });
    const llm = await startLlm({
      apiKey: 'sk-local',
      models: ['llama3.1:8b'],
      serverInfo: { kind: 'ollama', modelWindow: 131_072, redirectTo: elsewhere.baseUrl.replace(/\/v1$/, '') },
    });

    const window = await discoverContextWindow({ baseUrl: llm.baseUrl, apiKey: 'sk-local', model: 'llama3.1:8b' });

    expect(window.source).toBe('default');
    expect(asked(llm)).toContain('POST /api/show');
    expect(llm.requests.map((request) => request.headers.authorization)).toEqual(llm.requests.map(() => 'Bearer sk-local'));
    expect(elsewhere.requests).toEqual([]);
  });
});
