import { describe, expect, it } from 'vitest';
import type { EventOf } from '../../../engine/contract/index.js';
import { PromptCacheKeys, type LlmSettings } from '../../../engine/index.js';
import type { FakeLlm } from '../../support/fakeLlm/index.js';
import { useFakeLlm } from '../../support/fakeLlm/useFakeLlm.js';
import { useOpenedWorkbenches } from '../../support/openedWorkbenches.js';
import { fakeModelOptions, planText, recordEvents, say } from '../../support/rpiScript.js';
import { startRun } from '../../support/startRun.js';
import { useTempFolders } from '../../support/tempFolder.js';

const oneItemRun = [say('A README.'), say(planText('Greeting')), say('Greeted.'), say('Greeted the user.')];

/** The run's model client believes it talks to OpenAI; its requests, through the real SDK, reach the fake. */
const toOpenAi = (llm: FakeLlm): typeof fetch => (input, init) => fetch(`${llm.baseUrl}${new URL(String(input)).pathname.replace(/^.*(?=\/chat\/)/, '')}`, init);

describe("a run's model client", () => {
  const fake = useFakeLlm();
  const tempFolder = useTempFolders();
  const open = useOpenedWorkbenches();

  async function runAgainstOpenAi(settings: Partial<LlmSettings>) {
    const [folder, config] = [await tempFolder(), await tempFolder()];
    fake().enqueue(...oneItemRun.map((turn) => ({ ...turn, usage: { promptTokens: 1_000_000, cachedTokens: 500_000, completionTokens: 100_000 } })));
    const options = fakeModelOptions(fake());
    const workbench = await open(folder, {
      ...options,
      llmSettings: async () => ({ baseUrl: 'https://api.openai.com/v1', apiKey: null, model: 'fake-model', contextWindow: 32_000, toolMode: 'native', ...settings }),
      llmClient: { ...options.llmClient, fetch: toOpenAi(fake()) },
      promptCacheKeys: new PromptCacheKeys(config),
    });
    const events = recordEvents(workbench);
    const run = await startRun(workbench, 'Greet the user.');
    expect((await run.finished).status).toBe('done');
    return { events, folderKey: await new PromptCacheKeys(config).keyFor(folder) };
  }

  it("sends the folder's kept cache key with every request", async () => {
    const { folderKey } = await runAgainstOpenAi({});

    expect(fake().promptCacheKeys()).toEqual(oneItemRun.map(() => folderKey));
  });

  it('sends no key when prompt caching is off', async () => {
    await runAgainstOpenAi({ promptCaching: 'off' });

    expect(fake().promptCacheKeys()).toEqual(oneItemRun.map(() => null));
  });

  it("prices every request at the user's price", async () => {
    const { events } = await runAgainstOpenAi({ price: { input: 2, cachedInput: 0.5, output: 8 } });

    const costs = events.filter((event): event is EventOf<'usage'> => event.type === 'usage').map((event) => event.costUsd);
    // 500,000 fresh input at $2, 500,000 cached at $0.50 and 100,000 out at $8 per million.
    expect(costs).toEqual(oneItemRun.map(() => expect.closeTo(2.05, 10)));
  });
});
