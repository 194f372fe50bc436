import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseJsonEvents, useCli, writeSettingsFile } from '../../support/cliProcess.js';
import { useFakeLlm } from '../../support/fakeLlm/useFakeLlm.js';
import { planText, say } from '../../support/rpiScript.js';
import { useTempFolders } from '../../support/tempFolder.js';

/** A run of four requests, each reporting 1M tokens in (half of them cached) and 100,000 out. */
const fourRequests = () => [say('A README.'), say(planText('Greeting')), say('Greeted.'), say('Greeted the user.')].map((turn) => ({ ...turn, usage: { promptTokens: 1_000_000, cachedTokens: 500_000, completionTokens: 100_000 } }));

/** Each test runs the CLI two or three times, a process of its own each. */
const severalRuns = { timeout: 60_000 };

describe('rpi-workbench run --prompt-caching', severalRuns, () => {
  const tempFolder = useTempFolders('rpi-cli-caching-');
  const llm = useFakeLlm();
  const cli = useCli();
  const model = () => ['--yes', '--base-url', llm().baseUrl, '--model', 'fake-model'];
  const keysFile = () => path.join(cli.configDir(), 'prompt-cache-keys.json');

  it("keeps the folder's cache key in the config directory, asks for none with off, and refuses another mode", async () => {
    const [cached, uncached] = [await tempFolder(), await tempFolder()];
    llm().enqueue(...fourRequests(), ...fourRequests());

    expect((await cli.run(['run', cached, 'Greet the user', ...model()])).code).toBe(0);
    expect((await cli.run(['run', uncached, 'Greet the user', '--prompt-caching', 'off', ...model()])).code).toBe(0);
    const refused = await cli.run(['run', uncached, 'Greet the user', '--prompt-caching', 'on', ...model()]);

    const keys = JSON.parse(await readFile(keysFile(), 'utf8')) as Record<string, string>;
    expect(Object.keys(keys)).toEqual([cached]);
    expect(keys[cached]).toMatch(/^[0-9a-f-]{36}$/);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("option '--prompt-caching <mode>' argument 'on' is invalid. Allowed choices are auto, off.");
  });

  it('asks for no key when Settings turned prompt caching off', async () => {
    const root = await tempFolder();
    await writeSettingsFile(cli.configDir(), { promptCaching: 'off' });
    llm().enqueue(...fourRequests());

    expect((await cli.run(['run', root, 'Greet the user', ...model()])).code).toBe(0);
    expect(existsSync(keysFile())).toBe(false);
  });
});

describe('rpi-workbench run: the price in Settings', severalRuns, () => {
  const tempFolder = useTempFolders('rpi-cli-price-');
  const llm = useFakeLlm();
  const cli = useCli();

  const costs = (stdout: string) => parseJsonEvents(stdout).flatMap((event) => (event.type === 'usage' ? [event.costUsd] : []));

  it('prices the saved model at it, and a model given by flag from the catalog (unknown here: no price)', async () => {
    const root = await tempFolder();
    await writeSettingsFile(cli.configDir(), { baseUrl: llm().baseUrl, model: 'fake-model', price: { input: 2, cachedInput: 0.5, output: 8, model: 'fake-model' } });
    llm().enqueue(...fourRequests(), ...fourRequests());

    const saved = await cli.run(['run', root, 'Greet the user', '--json', '--yes']);
    const other = await cli.run(['run', root, 'Greet the user again', '--json', '--yes', '--model', 'fake-model-2']);

    // 500,000 fresh input at $2, 500,000 cached at $0.50 and 100,000 out at $8 per million.
    expect(costs(saved.stdout)).toEqual([2.05, 2.05, 2.05, 2.05].map((dollars) => expect.closeTo(dollars, 10)));
    expect(costs(other.stdout)).toEqual([null, null, null, null]);
  });
});
