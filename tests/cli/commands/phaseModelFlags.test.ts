import { describe, expect, it } from 'vitest';
import type { Phase } from '../../../engine/contract/index.js';
import { historyOf, useCli, writeSettingsFile } from '../../support/cliProcess.js';
import type { FakeLlm } from '../../support/fakeLlm/index.js';
import { useFakeLlm, useFakeLlmStarter } from '../../support/fakeLlm/useFakeLlm.js';
import { call, phaseOfRequest, planText, say } from '../../support/rpiScript.js';
import { useTempFolders, writeTree } from '../../support/tempFolder.js';

const mainKey = 'sk-main-0123456789abcdef';

function phasesAndModels(llm: FakeLlm): [Phase | null, string][] {
  return llm.chatRequests().map((body) => [phaseOfRequest(body), body.model]);
}

describe('a model per phase on the command line', () => {
  const tempFolder = useTempFolders('rpi-cli-phase-models-');
  const llm = useFakeLlm();
  const start = useFakeLlmStarter();
  const cli = useCli();

  async function project() {
    const root = await tempFolder();
    await writeTree(root, { 'README.md': '# demo\n' });
    return root;
  }

  const greeting = () => [
    say('The project is a README.'),
    say(planText('Greeting')),
    call('write_file', { path: 'greeting.txt', content: 'hi\n' }),
    say('Wrote greeting.txt.'),
    say('Added greeting.txt.'),
  ];

  it('--plan-model and --summary-model put those phases on other models of the server; the step lines and history --json name them', async () => {
    const root = await project();
    llm().enqueue(...greeting());

    const run = await cli.run(['run', root, 'Add a greeting', '--yes', '--base-url', llm().baseUrl, '--model', 'main-model', '--plan-model', 'plan-model', '--summary-model', 'sum-model']);

    expect(run.code).toBe(0);
    expect(phasesAndModels(llm())).toEqual([
      ['research', 'main-model'],
      ['plan', 'plan-model'],
      ['implement', 'main-model'],
      ['implement', 'main-model'],
      ['summary', 'sum-model'],
    ]);
    expect(run.stderr).toContain('Models: Research, Implement main-model · Plan plan-model · Summary sum-model');
    expect(run.stderr).toContain('▸ Research: analyzing files… · main-model');
    expect(run.stderr).toContain('▸ Plan: planning approach… · plan-model');
    expect(run.stderr).toContain('▸ Implement: step 1/1: Greeting · main-model');
    expect(run.stderr).toContain('▸ Summary: summarizing results… · sum-model');
    const [request] = await historyOf(cli, root);
    expect(request?.models).toEqual({ research: 'main-model', plan: 'plan-model', implement: 'main-model', summary: 'sum-model' });
  });

  it('sends a phase to the connection Settings give it, never with the main key; --model puts every phase back on one model', async () => {
    const main = await start({ apiKey: mainKey });
    const planner = await start();
    await writeSettingsFile(cli.configDir(), {
      baseUrl: main.baseUrl,
      model: 'main-model',
      models: { plan: { use: 'connection', baseUrl: planner.baseUrl, model: 'plan-model', contextWindow: 16_384 } },
    });
    const root = await project();
    main.enqueue(say('The project is a README.'), call('write_file', { path: 'greeting.txt', content: 'hi\n' }), say('Wrote greeting.txt.'), say('Added greeting.txt.'));
    planner.enqueue(say(planText('Greeting')));

    const run = await cli.run(['run', root, 'Add a greeting', '--yes'], { env: { OPENAI_API_KEY: mainKey } });

    expect(run.code).toBe(0);
    expect(phasesAndModels(planner)).toEqual([['plan', 'plan-model']]);
    expect(phasesAndModels(main).map(([phase]) => phase)).toEqual(['research', 'implement', 'implement', 'summary']);
    expect(planner.requests.map((recorded) => recorded.headers.authorization)).not.toContain(`Bearer ${mainKey}`);
    expect(JSON.stringify(planner.requests.map((recorded) => recorded.headers))).not.toContain(mainKey);
    expect(run.stderr).toContain('Plan on plan-model: Context window: 16,384 tokens (from Settings)');

    const again = await project();
    main.enqueue(...greeting());
    const single = await cli.run(['run', again, 'Add a greeting', '--yes', '--model', 'main-model'], { env: { OPENAI_API_KEY: mainKey } });
    expect(single.code).toBe(0);
    expect(phasesAndModels(planner)).toHaveLength(1);
    expect(phasesAndModels(main).slice(4).map(([phase]) => phase)).toEqual(['research', 'plan', 'implement', 'implement', 'summary']);
  });

  it('stops with exit 2, saying what to pass, when a phase connection\'s key was stored by the desktop app', async () => {
    await writeSettingsFile(cli.configDir(), {
      baseUrl: llm().baseUrl,
      model: 'main-model',
      models: { research: { use: 'connection', baseUrl: 'http://127.0.0.1:9/v1', model: 'r', apiKeyEncrypted: Buffer.from('sealed').toString('base64') } },
    });
    const root = await project();

    const run = await cli.run(['run', root, 'Anything']);

    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      'Settings give Research a connection of its own whose key the desktop app stored encrypted with its OS keychain, which the command line cannot read: pass --research-model <name> to use a model of the main server instead, or --model to use one model for every phase.',
    );
    expect(llm().requests).toEqual([]);
  });

  it('refuses an empty phase model with a usage error', async () => {
    const root = await project();
    const run = await cli.run(['run', root, 'Anything', '--base-url', llm().baseUrl, '--model', 'm', '--implement-model', ' ']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("option '--implement-model <name>' argument ' ' is invalid. must name a model, e.g. gpt-4.1-mini.");
    expect(llm().requests).toEqual([]);
  });
});
