import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { ChatCompletionCreateParams } from 'openai/resources/chat/completions';
import { describe, expect, it } from 'vitest';
import type { EventOf, Phase } from '../../../engine/contract/index.js';
import { SettingsStore } from '../../../engine/settings/index.js';
import type { FakeLlm } from '../../support/fakeLlm/index.js';
import { useFakeLlmStarter } from '../../support/fakeLlm/useFakeLlm.js';
import { useOpenedWorkbenches } from '../../support/openedWorkbenches.js';
import { request } from '../../support/planHistory.js';
import { call, fakeModelOptions, phaseOfRequest, planText, recordEvents, say } from '../../support/rpiScript.js';
import { useTempFolders, writeTree } from '../../support/tempFolder.js';
import { xorCipher } from '../../support/xorCipher.js';

const mainKey = 'sk-main-0123456789abcdef';
const planKey = 'sk-plan-fedcba9876543210';

/** Which phase sent each chat request a server got, and with which model. */
function phasesAndModels(llm: FakeLlm): { phase: Phase | null; model: string }[] {
  return llm.chatRequests().map((body: ChatCompletionCreateParams) => ({ phase: phaseOfRequest(body), model: body.model }));
}

/** Every Authorization header a server got, on any request (model lists and window probes included). */
function authorizations(llm: FakeLlm): string[] {
  return llm.requests.map((recorded) => String(recorded.headers.authorization ?? ''));
}

describe('a model per phase', () => {
  const tempFolder = useTempFolders('rpi-phase-models-');
  const start = useFakeLlmStarter();
  const open = useOpenedWorkbenches();

  it('sends each phase to its own model and server, each key only to its own server, and records which model ran each phase', async () => {
    const main = await start({ apiKey: mainKey });
    const planner = await start({ apiKey: planKey });
    const config = await tempFolder();
    const settings = new SettingsStore({ configDir: config, cipher: xorCipher(), env: {} });
    await settings.update({
      baseUrl: main.baseUrl,
      model: 'main-model',
      apiKey: mainKey,
      contextWindow: 32_000,
      price: { input: 1, cachedInput: null, output: 2 },
      models: {
        plan: { use: 'connection', baseUrl: planner.baseUrl, model: 'plan-model', apiKey: planKey, contextWindow: 16_000 },
        summary: { use: 'model', model: 'summary-model', contextWindow: 8_192 },
      },
    });
    const root = await tempFolder();
    await writeTree(root, { 'a.txt': 'alpha\n' });
    const workbench = await open(root, fakeModelOptions(main, { llmSettings: () => settings.llmSettings() }));
    const events = recordEvents(workbench);
    main.enqueue(
      say('a.txt holds one line.'),
      call('run_command', { command: `echo ${planKey}` }),
      say('Echoed.'),
      say('Echoed the key; it came back hidden.'),
    );
    planner.enqueue(say(planText('Echo')));

    const messageId = await request(workbench, 'Echo something');

    expect(phasesAndModels(main)).toEqual([
      { phase: 'research', model: 'main-model' },
      { phase: 'implement', model: 'main-model' },
      { phase: 'implement', model: 'main-model' },
      { phase: 'summary', model: 'summary-model' },
    ]);
    expect(phasesAndModels(planner)).toEqual([{ phase: 'plan', model: 'plan-model' }]);
    expect(new Set(authorizations(main))).toEqual(new Set([`Bearer ${mainKey}`]));
    expect(new Set(authorizations(planner))).toEqual(new Set([`Bearer ${planKey}`]));

    const started = events.filter((event): event is EventOf<'phase-started'> => event.type === 'phase-started');
    expect(started.map(({ phase, model }) => [phase, model])).toEqual([
      ['research', 'main-model'],
      ['plan', 'plan-model'],
      ['implement', 'main-model'],
      ['summary', 'summary-model'],
    ]);
    // Each model's window is told as a phase starts on it, and fitted to on every call of its phases.
    const told = events.filter((event): event is EventOf<'context-window'> => event.type === 'context-window').map(({ model, tokens, detail }) => [model, tokens, detail]);
    expect(told).toEqual([
      ['main-model', 32_000, 'Settings'],
      ['plan-model', 16_000, 'Settings'],
      ['main-model', 32_000, 'Settings'],
      ['summary-model', 8_192, 'Settings'],
    ]);
    const windows = events.filter((event): event is EventOf<'usage'> => event.type === 'usage').map(({ phase, contextWindow }) => [phase, contextWindow]);
    expect(windows).toEqual([
      ['research', 32_000],
      ['plan', 16_000],
      ['implement', 32_000],
      ['implement', 32_000],
      ['summary', 8_192],
    ]);

    // Kept on disk with the run: which model answered each call, and each step priced by its own model.
    const lines = (await readFile(path.join(root, '.workbench', 'rpi', 'usage.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { phase: Phase; model: string; costUsd: number | null });
    expect(lines.map(({ phase, model }) => [phase, model])).toEqual([
      ['research', 'main-model'],
      ['plan', 'plan-model'],
      ['implement', 'main-model'],
      ['implement', 'main-model'],
      ['summary', 'summary-model'],
    ]);
    expect(lines.map(({ phase, costUsd }) => [phase, costUsd !== null])).toEqual([
      ['research', true],
      ['plan', false],
      ['implement', true],
      ['implement', true],
      ['summary', false],
    ]);

    const snapshot = await workbench.request('workbench:snapshot');
    expect(snapshot.usage?.requests[messageId]?.models).toEqual({ research: 'main-model', plan: 'plan-model', implement: 'main-model', summary: 'summary-model' });

    // The plan connection's key is masked in what the command printed, as the main key would be.
    const toolLog = await readFile(path.join(root, '.workbench', 'tool-log.jsonl'), 'utf8');
    expect(toolLog).not.toContain(planKey);
    expect(toolLog).toContain('[hidden: API key]');
    const toolResults = main.chatRequests().flatMap((body) => body.messages.filter((message) => message.role === 'tool'));
    expect(toolResults.length).toBeGreaterThan(0);
    expect(JSON.stringify(toolResults)).not.toContain(planKey);
  });

  it('refuses to send a phase connection\'s stored key to a base URL it was not saved for', async () => {
    const config = await tempFolder();
    const settings = new SettingsStore({ configDir: config, cipher: xorCipher(), env: {} });
    await settings.update({ model: 'main-model', models: { research: { use: 'connection', baseUrl: 'http://127.0.0.1:9/v1', model: 'r', apiKey: planKey } } });
    await settings.update({ models: { research: { use: 'connection', baseUrl: 'http://127.0.0.1:10/v1', model: 'r' } } });

    await expect(settings.llmSettings()).rejects.toThrow(
      'The API key of the Research connection was saved for http://127.0.0.1:9/v1, and is not sent to http://127.0.0.1:10/v1: type the key again in Settings → Models.',
    );
    await expect(settings.phaseConnectionFor('research', undefined)).rejects.toThrow(/saved for http:\/\/127\.0\.0\.1:9\/v1, and is not sent to http:\/\/127\.0\.0\.1:10\/v1/);
  });
});
