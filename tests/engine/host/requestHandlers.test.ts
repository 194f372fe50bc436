import { describe, expect, it } from 'vitest';
import { createDispatch, type Dispatch } from '../../../engine/contract/index.js';
import { requestHandlers } from '../../../engine/host/requestHandlers.js';
import type { Workbench } from '../../../engine/index.js';
import { noKeyStorage, type KeyCipher } from '../../../engine/settings/keyCipher.js';
import { RecentFolders } from '../../../engine/settings/recentFolders.js';
import { SettingsStore } from '../../../engine/settings/settingsStore.js';
import { useFakeLlmStarter } from '../../support/fakeLlm/useFakeLlm.js';
import { writeLegacyFolder } from '../../support/legacyFolder.js';
import { useOpenedWorkbenches } from '../../support/openedWorkbenches.js';
import { useTempFolders } from '../../support/tempFolder.js';
import { xorCipher } from '../../support/xorCipher.js';

const hostOnly = async (): Promise<never> => {
  throw new Error('a host-only channel');
};

describe('the host request handlers', () => {
  const tempFolder = useTempFolders('rpi-host-');
  const startLlm = useFakeLlmStarter();
  const open = useOpenedWorkbenches();

  /** A host's dispatcher over the handler table, with settings in a fresh config folder. */
  async function host(options: { env?: NodeJS.ProcessEnv; workbench?: Workbench; cipher?: KeyCipher } = {}): Promise<{ dispatch: Dispatch; settings: SettingsStore }> {
    const configDir = await tempFolder();
    const settings = new SettingsStore({ configDir, cipher: options.cipher ?? noKeyStorage('no keychain in tests'), env: options.env ?? {} });
    const handlers = requestHandlers(
      { settings, recent: new RecentFolders(configDir), currentWorkbench: () => options.workbench ?? null },
      { 'folders:pick': hostOnly, 'folders:open': hostOnly, 'host:info': hostOnly },
    );
    return { dispatch: createDispatch(handlers), settings };
  }

  describe('settings:test-connection', () => {
    it('lists the saved server’s models, finds the saved model and learns its context window', async () => {
      const llm = await startLlm({ models: ['zeta', 'fake-model', 'alpha'], serverInfo: { kind: 'vllm', modelWindow: 32_768 } });
      const { dispatch, settings } = await host();
      await settings.update({ baseUrl: llm.baseUrl, model: 'fake-model' });

      expect(await dispatch('settings:test-connection', {})).toEqual({
        ok: true,
        value: { models: ['alpha', 'fake-model', 'zeta'], modelFound: true, contextWindow: { tokens: 32_768, source: 'server', detail: 'vLLM max_model_len' } },
      });
      expect(llm.requests.map(({ method, path }) => `${method} ${path}`)).toEqual(['GET /v1/models']);
    });

    it('tests the unsaved form values over the saved ones, without saving them', async () => {
      const llm = await startLlm({ models: ['fake-model'], apiKey: 'sk-form' });
      const { dispatch, settings } = await host();
      await settings.update({ baseUrl: 'http://127.0.0.1:9/v1', model: 'fake-model' });

      const result = await dispatch('settings:test-connection', { baseUrl: llm.baseUrl, model: 'qwen3', apiKey: 'sk-form' });

      expect(result).toMatchObject({ ok: true, value: { models: ['fake-model'], modelFound: false } });
      expect(llm.requests[0]?.headers.authorization).toBe('Bearer sk-form');
      expect(await settings.get()).toMatchObject({ baseUrl: 'http://127.0.0.1:9/v1', model: 'fake-model', apiKeySet: false });
    });

    it('uses the key a run would use when the form has none, and says null when no model is named', async () => {
      const llm = await startLlm({ apiKey: 'sk-env' });
      const { dispatch, settings } = await host({ env: { OPENAI_API_KEY: 'sk-env' } });
      await settings.update({ baseUrl: llm.baseUrl });

      expect(await dispatch('settings:test-connection', { baseUrl: llm.baseUrl })).toEqual({ ok: true, value: { models: ['fake-model'], modelFound: null, contextWindow: null } });
    });

    it('tests a phase\'s own connection with its stored key, which never goes to the main server, nor the main key to it', async () => {
      const main = await startLlm({ models: ['big'], apiKey: 'sk-main-key-0001' });
      const planner = await startLlm({ models: ['o3'], apiKey: 'sk-plan-key-0002', serverInfo: { kind: 'vllm', modelWindow: 65_536 } });
      const { dispatch, settings } = await host({ cipher: xorCipher() });
      await settings.update({ baseUrl: main.baseUrl, model: 'big', apiKey: 'sk-main-key-0001' });
      await settings.update({ models: { plan: { use: 'connection', baseUrl: planner.baseUrl, model: 'o3', apiKey: 'sk-plan-key-0002' } } });

      expect(await dispatch('settings:test-connection', { phase: 'plan' })).toEqual({
        ok: true,
        value: { models: ['o3'], modelFound: true, contextWindow: { tokens: 65_536, source: 'server', detail: 'vLLM max_model_len' } },
      });
      expect(await dispatch('settings:test-connection', {})).toMatchObject({ ok: true, value: { models: ['big'], modelFound: true } });
      expect(new Set(planner.requests.map((recorded) => recorded.headers.authorization))).toEqual(new Set(['Bearer sk-plan-key-0002']));
      expect(new Set(main.requests.map((recorded) => recorded.headers.authorization))).toEqual(new Set(['Bearer sk-main-key-0001']));

      // Pointed elsewhere from the form, the stored key stays home.
      expect(await dispatch('settings:test-connection', { phase: 'plan', baseUrl: main.baseUrl })).toMatchObject({
        ok: false,
        error: expect.stringContaining(`was saved for ${planner.baseUrl}, and is not sent to ${main.baseUrl}`) as string,
      });
    });

    it('says the key was rejected', async () => {
      const llm = await startLlm({ apiKey: 'sk-right' });
      const { dispatch } = await host();

      expect(await dispatch('settings:test-connection', { baseUrl: llm.baseUrl, apiKey: 'sk-wrong' })).toEqual({
        ok: false,
        error: `settings:test-connection: The model server at ${llm.baseUrl} rejected the API key (HTTP 401). Check the API key in Settings or OPENAI_API_KEY.`,
      });
    });

    it('says when the server cannot be reached', async () => {
      const gone = await startLlm();
      await gone.close();
      const { dispatch } = await host();

      const result = await dispatch('settings:test-connection', { baseUrl: gone.baseUrl });

      expect(result.ok).toBe(false);
      expect(!result.ok && result.error).toBe(
        `settings:test-connection: Cannot reach the model server at ${gone.baseUrl} (ECONNREFUSED). Check the base URL and that the server is running.`,
      );
    });

    it('says when the base URL has no model list, pointing at /v1', async () => {
      const llm = await startLlm();
      const withoutV1 = llm.baseUrl.replace(/\/v1$/, '');
      const { dispatch } = await host();

      expect(await dispatch('settings:test-connection', { baseUrl: withoutV1 })).toEqual({
        ok: false,
        error:
          `settings:test-connection: The model server at ${withoutV1} has no model list (GET /models answered HTTP 404). ` +
          'Check the base URL: OpenAI-compatible servers usually serve it under /v1.',
      });
    });

    it('says when the model list is a web page, not a model list, and to check the base URL', async () => {
      const llm = await startLlm({ modelListAsWebPage: true });
      const { dispatch } = await host();

      expect(await dispatch('settings:test-connection', { baseUrl: llm.baseUrl, model: 'fake-model' })).toEqual({
        ok: false,
        error:
          `settings:test-connection: The model server at ${llm.baseUrl} answered GET /models with a web page (HTML), not a model list. ` +
          'Check the base URL: OpenAI-compatible servers usually serve under /v1, and a proxy may be showing its own page.',
      });
    });
  });

  describe('session:discard and rpi:read', () => {
    it('need an open folder', async () => {
      const { dispatch } = await host();
      expect(await dispatch('session:discard', {})).toEqual({ ok: false, error: 'session:discard: No folder is open: open a project folder first.' });
      expect(await dispatch('rpi:read', { file: 'plan' })).toEqual({ ok: false, error: 'rpi:read: No folder is open: open a project folder first.' });
    });

    it('answer for the open folder', async () => {
      const root = await tempFolder();
      const workbench = await open(root);
      const { dispatch } = await host({ workbench });

      expect(await dispatch('session:discard', {})).toEqual({ ok: true, value: { discarded: false } });
      expect(await dispatch('rpi:read', { file: 'research' })).toEqual({ ok: true, value: { text: null } });
      expect(await dispatch('rpi:read', { file: '../conversation' })).toEqual({ ok: false, error: 'rpi:read: file must be "research" or "plan"' });
    });
  });

  describe('session:run-file', () => {
    it('needs an open folder, a request of its conversation and a known file', async () => {
      expect(await (await host()).dispatch('session:run-file', { messageId: 'm-1', file: 'plan' })).toEqual({
        ok: false,
        error: 'session:run-file: No folder is open: open a project folder first.',
      });
      const empty = await host({ workbench: await open(await tempFolder()) });
      expect(await empty.dispatch('session:run-file', { messageId: 'm-1', file: 'plan' })).toEqual({
        ok: false,
        error: 'session:run-file: This folder has no conversation yet: send a request to start one.',
      });
      const used = await tempFolder();
      await writeLegacyFolder(used);
      const { dispatch } = await host({ workbench: await open(used) });

      expect(await dispatch('session:run-file', { messageId: '../rpi', file: 'plan' })).toEqual({
        ok: false,
        error: 'session:run-file: There is no message "../rpi" in this folder\'s conversation.',
      });
      expect(await dispatch('session:run-file', { messageId: 'm-1', file: 'run.json' })).toEqual({ ok: false, error: 'session:run-file: file must be "research" or "plan"' });
      expect(await dispatch('session:run-file', { messageId: '', file: 'plan' })).toEqual({ ok: false, error: 'session:run-file: messageId must be the id of a request' });
    });
  });

  describe('changes:diffs', () => {
    it('needs an open folder, a request of its conversation and a line count or "auto"', async () => {
      expect(await (await host()).dispatch('changes:diffs', { messageId: 'm-1' })).toEqual({
        ok: false,
        error: 'changes:diffs: No folder is open: open a project folder first.',
      });
      const { dispatch } = await host({ workbench: await open(await tempFolder()) });

      expect(await dispatch('changes:diffs', { messageId: 'm-1', range: 'since', context: 'auto' })).toEqual({
        ok: false,
        error: 'changes:diffs: There is no message "m-1" in this folder\'s conversation.',
      });
      expect(await dispatch('changes:diffs', { messageId: 'm-1', context: -1 })).toEqual({ ok: false, error: 'changes:diffs: context must be 0 or more lines' });
      expect(await dispatch('changes:diffs', { messageId: 'm-1', context: 'all' })).toEqual({ ok: false, error: 'changes:diffs: context must be a whole number of lines or "auto"' });
      expect(await dispatch('changes:diffs', { messageId: 'm-1', paths: [] })).toEqual({ ok: false, error: 'changes:diffs: paths must name at least one file' });
    });
  });
});
