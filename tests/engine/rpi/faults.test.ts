import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useFakeLlm, useFakeLlmStarter } from '../../support/fakeLlm/useFakeLlm.js';
import { useOpenedWorkbenches } from '../../support/openedWorkbenches.js';
import { call, fakeModelOptions, phaseOfRequest, planText, recordEvents, requestText, say } from '../../support/rpiScript.js';
import { startRun } from '../../support/startRun.js';
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
    const workbench = await open(root, fakeModelOptions(llm(), { llmClient: { firstByteTimeoutMs: 300, idleTimeoutMs: 300, maxRetries: 2, retryBaseDelayMs: 10 } }));
    const events = recordEvents(workbench);

    const result = await (await startRun(workbench, 'Write b.txt')).finished;

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
      const result = await (await startRun(workbench, 'Go')).finished;
      expect(result).toMatchObject({ status: 'failed', phase });
      expect(result.error).toMatch(pattern);
      expect(result.error).toContain(fake.baseUrl);
      if (phase === 'implement') {
        // The server failed, not the item: it stays pending, for resume.
        expect((await workbench.request('workbench:snapshot')).rpi.items.map((item) => item.status)).toEqual(['pending']);
      }
      await workbench.close();
    }
  });

  it("runs a tool loop through Gemini's endpoint, which refuses any turn whose tool calls come back without their thought signatures", async () => {
    const root = await project();
    const gemini = await startLlm({
      requireThoughtSignatures: true,
      script: [
        call('read_file', { path: 'a.txt' }, { quirks: ['thought-signatures'] }),
        call('search_files', { pattern: 'alpha' }, { quirks: ['thought-signatures'] }),
        say('a.txt says alpha.'),
        say('# Execution Plan\n\nNothing needs to change.\n\n## Items\n'),
        say('Nothing needed changing.'),
      ],
    });
    const workbench = await open(root, fakeModelOptions(gemini));
    const result = await (await startRun(workbench, 'What does a.txt say?')).finished;
    expect(result).toMatchObject({ status: 'done', summary: 'Nothing needed changing.' });
    const research = gemini.chatRequests().filter((request) => phaseOfRequest(request) === 'research');
    expect(JSON.stringify(research.at(-1)?.messages)).toMatch(/"extra_content":\{"google":\{"thought_signature":"sig-[^"]+"\}\}.*"extra_content"/);
  });

  it('warns once when the server counts far fewer prompt tokens than were sent (Ollama cutting at its default context)', async () => {
    const root = await project();
    const counted = 300;
    llm().enqueue(say('research', { usage: { promptTokens: counted } }), say(planText('Only'), { usage: { promptTokens: counted } }), say('done'), say('summary'));
    const workbench = await open(root, fakeModelOptions(llm()));
    const events = recordEvents(workbench);
    expect((await (await startRun(workbench, 'Go')).finished).status).toBe('done');
    const warnings = events.flatMap((event) => (event.type === 'warning' ? [event.message] : []));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^The model server counted only 300 of the about [\d,]+ prompt tokens sent: it cut the start of the prompt to fit a smaller context window than the 32,000 tokens assumed/);
    expect(warnings[0]).toContain('OLLAMA_CONTEXT_LENGTH');
    // A server that counts what it was sent raises nothing.
    const honest = await startLlm({ script: [say('research'), say(planText('Only')), say('done'), say('summary')] });
    const other = await open(await project(), fakeModelOptions(honest));
    const otherEvents = recordEvents(other);
    await (await startRun(other, 'Go')).finished;
    expect(otherEvents.filter((event) => event.type === 'warning')).toEqual([]);
  });

  it('tells each retry as it starts, before the reply that follows it', async () => {
    const root = await project();
    llm().enqueue({ fault: 'http-500' }, { text: 'research', queued: { comments: 2 } }, say(planText('Only')), say('done'), say('summary'));
    const workbench = await open(root, fakeModelOptions(llm()));
    const events = recordEvents(workbench);
    await (await startRun(workbench, 'Go')).finished;
    const research = events.filter((event) => event.type === 'model-status' && event.phase === 'research').map((event) => (event.type === 'model-status' ? event.state : ''));
    expect(research).toEqual(['waiting', 'retrying', 'waiting', 'queued', 'answering']);
    expect(events.find((event) => event.type === 'model-status' && event.state === 'retrying')).toMatchObject({ attempt: 2, attempts: 3, reason: 'HTTP 500' });
  });

  it('says the server cannot be reached, naming the base URL', async () => {
    const root = await project();
    const baseUrl = `http://127.0.0.1:${await closedPort()}/v1`;
    const workbench = await open(root, {
      llmSettings: async () => ({ baseUrl, apiKey: null, model: 'm', contextWindow: 8000, toolMode: 'native' }),
      llmClient: { maxRetries: 0 },
    });
    const result = await (await startRun(workbench, 'Go')).finished;
    expect(result).toMatchObject({ status: 'failed', phase: 'research' });
    expect(result.error).toMatch(new RegExp(`Cannot reach the model server at ${baseUrl.replace(/[.]/g, '\\.')}`));
  });
});
