import { describe, expect, it } from 'vitest';
import type { WorkbenchEvent } from '../../../engine/contract/index.js';
import { bigFileMap } from '../../support/bigFileMap.js';
import { useFakeLlm } from '../../support/fakeLlm/useFakeLlm.js';
import { useOpenedWorkbenches } from '../../support/openedWorkbenches.js';
import { fakeModelOptions, planText, recordEvents, say } from '../../support/rpiScript.js';
import { startRun } from '../../support/startRun.js';
import { useTempFolders, writeTree } from '../../support/tempFolder.js';

const warnings = (events: readonly WorkbenchEvent[]) => events.flatMap((event) => (event.type === 'warning' ? [event.message] : []));

describe('a run whose window leaves little room beside the fixed part of its requests', () => {
  const tempFolder = useTempFolders('rpi-fixed-part-');
  const llm = useFakeLlm();
  const open = useOpenedWorkbenches();

  async function runIn(files: Record<string, string>, contextWindow: number) {
    const root = await tempFolder();
    await writeTree(root, files);
    const workbench = await open(root, fakeModelOptions(llm(), { llmSettings: async () => ({ baseUrl: llm().baseUrl, apiKey: null, model: 'fake-model', contextWindow, toolMode: 'native' }) }));
    const events = recordEvents(workbench);
    llm().enqueue(say('Findings.'), say(planText('One', 'Two')), say('Did one.'), say('Did two.'), say('Summary.'));
    expect((await (await startRun(workbench, 'Do both')).finished).status).toBe('done');
    return events;
  }

  it('warns once a run, naming the phase, the share of the budget and the setting, when the fixed part takes more than half', async () => {
    const events = await runIn(bigFileMap(), 16_384);

    const [warning, ...more] = warnings(events);
    expect(more).toEqual([]);
    expect(warning).toMatch(
      /^The fixed part of each Research request \(system prompt, tools, plan, file map, project instructions\) takes about [\d,]+ tokens, \d+% of the 12,288 a request may fill in a context window of 16,384 tokens/,
    );
    expect(warning).toContain("If the model's window is larger, set it in Settings → Context window (on the command line: --context-window <tokens>).");
    const share = Number(/(\d+)% of the/.exec(warning!)?.[1]);
    expect(share).toBeGreaterThan(50);
    // Told as Research starts, before its first request goes out.
    const told = events.findIndex((event) => event.type === 'warning');
    expect(events.slice(0, told).some((event) => event.type === 'phase-started' && event.phase === 'research')).toBe(true);
  });

  it('says nothing when the fixed part leaves half of the budget or more', async () => {
    expect(warnings(await runIn({ 'README.md': '# demo\n' }, 16_384))).toEqual([]);
    expect(warnings(await runIn(bigFileMap(), 65_536))).toEqual([]);
  });
});
