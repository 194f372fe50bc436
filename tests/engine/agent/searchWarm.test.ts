import { describe, expect, it } from 'vitest';
import { runAgentLoop } from '../../../engine/agent/runAgentLoop.js';
import { defaultLoopLimits } from '../../../engine/agent/loopLimits.js';
import { ToolModeState } from '../../../engine/agent/toolMode.js';
import { createLlmClient } from '../../../engine/llm/openaiClient.js';
import { openToolLog } from '../../../engine/store/toolLog.js';
import { defaultSearchLimits } from '../../../engine/tools/search/runSearch.js';
import { searchWorkersStarted } from '../../../engine/tools/search/workerShelf.js';
import { toolsForPhase } from '../../../engine/tools/toolCatalog.js';
import { useFakeLlmStarter } from '../../support/fakeLlm/useFakeLlm.js';
import { call, say } from '../../support/rpiScript.js';
import { useTempFolders, writeTree } from '../../support/tempFolder.js';
import { toolContextFor } from '../../support/toolContext.js';

// Its own file: the search workers are kept per process, so no other test may have started them first.
describe('search workers of a phase that offers search_files', () => {
  const tempFolder = useTempFolders('rpi-search-warm-');
  const startLlm = useFakeLlmStarter();

  it('are started while the model thinks over its first request, so its first search starts none', async () => {
    const root = await tempFolder();
    await writeTree(root, { 'a.txt': 'needle\n' });
    const startedAtRequest: number[] = [];
    const turns = [call('search_files', { pattern: 'needle' }), say('Found it.')];
    const llm = await startLlm({
      script: (_request, index) => {
        startedAtRequest.push(searchWorkersStarted());
        return turns[index]!;
      },
    });
    const { signal: _, ...toolContext } = await toolContextFor(root);
    expect(searchWorkersStarted()).toBe(0);

    const result = await runAgentLoop({
      phase: 'research',
      runId: 'run-test',
      llm: createLlmClient({ baseUrl: llm.baseUrl, apiKey: null, model: 'fake-model' }),
      toolMode: new ToolModeState('native'),
      messages: [
        { role: 'system', content: 'You are a test.' },
        { role: 'user', content: 'Find the needle.' },
      ],
      tools: toolsForPhase('research'),
      maxTurns: 10,
      limits: defaultLoopLimits,
      finalAnswerAtCap: false,
      toolContext,
      toolLog: await openToolLog(`${root}/.workbench`),
      emit: () => {},
      nextCallId: () => 'c1',
      contextWindow: 8000,
      signal: new AbortController().signal,
    });

    expect(result).toMatchObject({ ok: true, text: 'Found it.', toolCalls: 1 });
    expect(startedAtRequest).toEqual([defaultSearchLimits.workers, defaultSearchLimits.workers]);
    expect(searchWorkersStarted()).toBe(defaultSearchLimits.workers);
  });
});
