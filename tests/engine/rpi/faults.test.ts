import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useFakeLlm, useFakeLlmStarter } from '../../support/fakeLlm/useFakeLlm.js';
import { useOpenedWorkbenches } from '../../support/openedWorkbenches.js';
import { call, fakeModelOptions, phaseOfRequest, planText, recordEvents, requestText, say } from '../../support/rpiScript.js';
import { useTempFolders, writeTree } from '../../support/tempFolder.js';
import { closedPort } from '../../support/closedPort.js';

describe('a run through every fault of the model server', () => {
  const tempFolder = useTempFolders('rpi-faults-');
  const llm = useFakeLlm();
  const startLlm = useFakeLlmStarter();
  const open = useOpenedWorkbenches();

  async function project() {
    const root = await tempFolder();
    await writeTree(root, { 'a.txt': 'alpha\n' });
    return root;
  }

  it('rides out 429, 500, a dropped stream, a stall, a missing finish_reason and malformed arguments', async () => {
    const root = await project();
    llm().enqueue(
      { fault: { type: 'http-429', retryAfterSeconds: 0 } },
      call('read_file', { path: 'a.txt' }),
      { fault: 'http-500' },
      say('research findings'),
      { fault: 'drop-mid-stream', text: 'a plan that never arrives whole' },
      say(planText('Write')),
      { fault: 'stall-after-headers' },
      call('read_file', { path: 'a.txt' }, { fault: 'malformed-arguments' }),
      { fault: 'no-finish-reason', text: 'cut off' },
      call('write_file', { path: 'b.txt', content: 'beta\n' }),
      say('Wrote b.txt.'),
      say('Wrote **b.txt**.', { fault: { type: 'drop-mid-stream', afterChunks: 2 } }),
      say('Wrote **b.txt**.'),
    );
    const workbench = await open(root, fakeModelOptions(llm(), { llmClient: { idleTimeoutMs: 300, maxRetries: 2, streamRetries: 2 } }));
    const events = recordEvents(workbench);

    const result = await (await workbench.send('Write b.txt')).finished;

    expect(result).toMatchObject({ status: 'done', summary: 'Wrote **b.txt**.' });
    expect(await readFile(path.join(root, 'b.txt'), 'utf8')).toBe('beta\n');
    const malformed = events.find((event) => event.type === 'tool-finished' && !event.ok);
    expect(malformed).toMatchObject({ summary: expect.stringContaining('Invalid arguments for read_file') });
    const implement = llm().chatRequests().filter((request) => phaseOfRequest(request) === 'implement');
    expect(requestText(implement.at(-1)!)).toContain('Invalid arguments for read_file');
    // The summary dropped after two chunks and was retried: the chat saw each character once.
    const deltas = events.flatMap((event) => (event.type === 'summary-delta' ? [event.text] : []));
    expect(deltas.join('')).toBe('Wrote **b.txt**.');
  });

  it('fails in the phase where the server refuses, with one sentence naming the server and what to check', async () => {
    const cases = [
      { at: 0, fault: 'http-401' as const, phase: 'research', pattern: /rejected the API key/ },
      { at: 1, fault: 'http-404-model' as const, phase: 'plan', pattern: /no model named "fake-model"/ },
      { at: 2, fault: 'http-401' as const, phase: 'implement', pattern: /rejected the API key/ },
    ];
    for (const { at, fault, phase, pattern } of cases) {
      const root = await project();
      const turns = [say('research'), say(planText('Only')), say('done'), say('summary')];
      turns[at] = { fault };
      const fake = await startLlm({ script: turns });
      const workbench = await open(root, fakeModelOptions(fake));
      const result = await (await workbench.send('Go')).finished;
      expect(result).toMatchObject({ status: 'failed', phase });
      expect(result.error).toMatch(pattern);
      expect(result.error).toContain(fake.baseUrl);
      if (phase === 'implement') {
        // The server failed, not the item: it stays pending, for resume.
        expect((await workbench.snapshot()).rpi.items.map((item) => item.status)).toEqual(['pending']);
      }
      await workbench.close();
    }
  });

  it('says the server cannot be reached, naming the base URL', async () => {
    const root = await project();
    const baseUrl = `http://127.0.0.1:${await closedPort()}/v1`;
    const workbench = await open(root, {
      llmSettings: async () => ({ baseUrl, apiKey: null, model: 'm', contextWindow: 8000, toolMode: 'native' }),
      llmClient: { maxRetries: 0 },
    });
    const result = await (await workbench.send('Go')).finished;
    expect(result).toMatchObject({ status: 'failed', phase: 'research' });
    expect(result.error).toMatch(new RegExp(`Cannot reach the model server at ${baseUrl.replace(/[.]/g, '\\.')}`));
  });
});
