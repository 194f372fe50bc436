import { describe, expect, it } from 'vitest';
import { historyOf, useCli } from '../../support/cliProcess.js';
import type { ScriptedTurn } from '../../support/fakeLlm/index.js';
import { useFakeLlm } from '../../support/fakeLlm/useFakeLlm.js';
import { call, planText, say } from '../../support/rpiScript.js';
import { useTempFolders, writeTree } from '../../support/tempFolder.js';

/** A turn whose server reports these counts and, OpenRouter-style, what the call cost. */
function priced(turn: ScriptedTurn, promptTokens: number, cachedTokens: number, completionTokens: number, costUsd: number): ScriptedTurn {
  return { ...turn, usage: { promptTokens, cachedTokens, completionTokens, costUsd }, usageShape: 'openrouter' };
}

/** A turn whose server reports counts but no cost: a catalog model on a local server has no known price. */
function unpriced(turn: ScriptedTurn, promptTokens: number, completionTokens: number, reasoningTokens = 0): ScriptedTurn {
  return { ...turn, usage: { promptTokens, completionTokens, reasoningTokens } };
}

describe('what a run used, in the CLI', () => {
  const tempFolder = useTempFolders('rpi-cli-spend-');
  const llm = useFakeLlm();
  const cli = useCli();
  const model = () => ['--base-url', llm().baseUrl, '--model', 'gpt-4.1-mini'];

  it('ends a run with tokens in (cached), out and cost; history --json gives the request its usage, and history a line of it', async () => {
    const root = await tempFolder();
    await writeTree(root, { 'README.md': '# demo\n' });
    llm().enqueue(
      priced(say('The project is a README.'), 20_000, 15_000, 1_500, 0.011),
      priced(say(planText('Greeting')), 18_200, 17_100, 1_000, 0.012),
      priced(call('write_file', { path: 'greeting.txt', content: 'hi\n' }), 10_000, 9_000, 800, 0.005),
      priced(say('Wrote greeting.txt.'), 10_000, 8_000, 600, 0.003),
      unpriced(say('Added greeting.txt.'), 500, 100, 40),
    );

    const run = await cli.run(['run', root, 'Add a greeting', '--yes', ...model()]);

    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/\nDone in \d+s · 58,700 tokens in \(49,100 cached\) · 4,000 out \(40 reasoning\) · ≥ \$0\.031, 1 step unpriced\n/);
    const lines = await historyOf(cli, root);
    expect(lines.map(({ role, usage }) => ({ role, usage }))).toEqual([
      {
        role: 'user',
        usage: { promptTokens: 58_700, cachedTokens: 49_100, cacheWriteTokens: 0, completionTokens: 4_000, reasoningTokens: 40, costUsd: expect.closeTo(0.031, 12) as number, unpricedSteps: 1 },
      },
      { role: 'assistant', usage: undefined },
    ]);
    const human = await cli.run(['history', root]);
    expect(human.code).toBe(0);
    const rows = human.stdout.trimEnd().split('\n');
    expect(rows[1]).toMatch(/ user +\S+ \S+ {2}Add a greeting {2}\[Plan: 1\/1 done\]$/);
    expect(rows[2]).toMatch(/^ +used: 58,700 tokens in \(49,100 cached\) · 4,000 out \(40 reasoning\) · ≥ \$0\.031, 1 step unpriced$/);
    expect(rows[3]).toMatch(/ assistant +\S+ \S+ {2}Added greeting\.txt\.$/);
  });

  it('shows tokens only when no price is known, and history --json says costUsd: null', async () => {
    const root = await tempFolder();
    await writeTree(root, { 'README.md': '# demo\n' });
    llm().enqueue(...[say('Still a README.'), say(planText('Tidy')), say('Tidied.'), say('Tidied up.')].map((turn) => unpriced(turn, 1_000, 10)));

    const run = await cli.run(['run', root, 'Tidy up', '--yes', ...model()]);

    expect(run.stderr).toMatch(/\nDone in \d+s · 4,000 tokens in · 40 out\n/);
    expect((await historyOf(cli, root))[0]?.usage).toEqual({ promptTokens: 4_000, cachedTokens: 0, cacheWriteTokens: 0, completionTokens: 40, reasoningTokens: 0, costUsd: null, unpricedSteps: 4 });
  });
});
