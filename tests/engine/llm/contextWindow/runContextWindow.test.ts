import { describe, expect, it } from 'vitest';
import { useFakeLlmStarter } from '../../../support/fakeLlm/useFakeLlm.js';
import { useOpenedWorkbenches } from '../../../support/openedWorkbenches.js';
import { fakeModelOptions, planText, recordEvents, say } from '../../../support/rpiScript.js';
import { startRun } from '../../../support/startRun.js';
import { useTempFolders, writeTree } from '../../../support/tempFolder.js';

describe('a run learns the context window when Settings leaves it automatic', () => {
  const tempFolder = useTempFolders('rpi-window-');
  const startLlm = useFakeLlmStarter();
  const open = useOpenedWorkbenches();

  async function runOnce(contextWindow: number | null) {
    const llm = await startLlm({ models: ['llama3.1:8b'], serverInfo: { kind: 'ollama', modelWindow: 131_072, numCtx: 8192 } });
    llm.enqueue(say('## Request\nNothing.'), say(planText('Look')), say('Looked.'), say('Done.'));
    const root = await tempFolder();
    await writeTree(root, { 'a.txt': 'a\n' });
    const workbench = await open(root, {
      ...fakeModelOptions(llm),
      llmSettings: async () => ({ baseUrl: llm.baseUrl, apiKey: null, model: 'llama3.1:8b', contextWindow, toolMode: 'native' }),
    });
    const events = recordEvents(workbench);
    const result = await (await startRun(workbench, 'Look around')).finished;
    return { llm, events, result };
  }

  it('asks the server once, uses its window in every usage event, and warns that Ollama cuts longer prompts', async () => {
    const { llm, events, result } = await runOnce(null);

    expect(result.status).toBe('done');
    expect(llm.requests.filter((request) => request.path === '/api/show')).toHaveLength(1);
    const windows = events.flatMap((event) => (event.type === 'usage' ? [event.contextWindow] : []));
    expect(windows.length).toBeGreaterThan(0);
    expect(new Set(windows)).toEqual(new Set([8192]));
    expect(events.find((event) => event.type === 'context-window')).toMatchObject({ tokens: 8_192, source: 'server' });
    const warnings = events.flatMap((event) => (event.type === 'warning' ? [event.message] : []));
    expect(warnings).toEqual([
      expect.stringMatching(/^The Ollama server runs llama3\.1:8b at 8,192 tokens of context and silently drops the start of longer prompts\. .*OLLAMA_CONTEXT_LENGTH.*num_ctx/),
      // No word of the fixed part: without the table tools (no table here) it takes less than half of 8,192 tokens.
    ]);
  });

  it('takes the window set in Settings without asking the server', async () => {
    const { llm, events } = await runOnce(20_000);

    expect(llm.requests.filter((request) => request.path !== '/v1/chat/completions')).toEqual([]);
    expect(events.filter((event) => event.type === 'usage').every((event) => event.type === 'usage' && event.contextWindow === 20_000)).toBe(true);
    expect(events.filter((event) => event.type === 'warning')).toEqual([]);
  });
});
