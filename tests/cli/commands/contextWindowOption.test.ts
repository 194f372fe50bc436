import { describe, expect, it } from 'vitest';
import { parseJsonEvents, useCli, writeSettingsFile } from '../../support/cliProcess.js';
import { bigFileMap } from '../../support/bigFileMap.js';
import { useFakeLlm } from '../../support/fakeLlm/useFakeLlm.js';
import { planText, say } from '../../support/rpiScript.js';
import { useTempFolders, writeTree } from '../../support/tempFolder.js';

describe('--context-window <tokens>', { timeout: 120_000 }, () => {
  const tempFolder = useTempFolders('rpi-cli-window-');
  const llm = useFakeLlm();
  const cli = useCli();

  const model = () => ['--base-url', llm().baseUrl, '--model', 'fake-model'];
  const oneItemRun = () => llm().enqueue(say('Findings.'), say(planText('Only')), say('Did it.'), say('Summary.'));

  it('refuses anything but a whole number of tokens from 1,024 to 10,000,000 on every command that runs: a usage error, exit 2', async () => {
    const root = await tempFolder();
    const refused = (value: string) => `option '--context-window <tokens>' argument '${value}' is invalid. must be a whole number of tokens from 1,024 to 10,000,000.`;
    const tries: [string[], string][] = [
      [['run', root, 'Look', '--context-window', '1023'], '1023'],
      [['run', root, 'Look', '--context-window', '10000001'], '10000001'],
      [['run', root, 'Look', '--context-window', '8k'], '8k'],
      [['resume', root, '--context-window', '4096.5'], '4096.5'],
      [['retry', root, '--context-window', '-4096'], '-4096'],
      [['regenerate', root, 'm-1', '--context-window', '0'], '0'],
      [['chat', root, '--context-window', ''], ''],
    ];

    const runs = await Promise.all(tries.map(([args]) => cli.run([...args, ...model()])));

    runs.forEach((run, index) => {
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(refused(tries[index]![1]));
    });
    expect(llm().requests).toEqual([]);
  });

  it('wins over Settings for that run: the window line, the run’s context-window event and every usage event', async () => {
    const root = await tempFolder();
    await writeTree(root, { 'README.md': '# demo\n' });
    await writeSettingsFile(cli.configDir(), { contextWindow: 65_536 });
    oneItemRun();

    const run = await cli.run(['run', root, 'Look', '--json', '--context-window', '20000', ...model()]);

    expect(run.code).toBe(0);
    expect(run.stderr).toContain('Context window: 20,000 tokens (from --context-window)\n');
    const events = parseJsonEvents(run.stdout);
    expect(events.find((event) => event.type === 'context-window')).toMatchObject({ tokens: 20_000, source: 'settings', detail: '--context-window' });
    expect(events.filter((event) => event.type === 'usage').map((event) => event.contextWindow)).toEqual([20_000, 20_000, 20_000, 20_000]);
  });

  it('says once, on stderr, when the fixed part of a request takes more than half of the budget, naming the setting', async () => {
    const root = await tempFolder();
    await writeTree(root, bigFileMap());
    oneItemRun();

    const run = await cli.run(['run', root, 'Look', '--context-window', '16384', ...model()]);

    expect(run.code).toBe(0);
    const warnings = run.stderr.split('\n').filter((line) => line.startsWith('rpi-workbench: warning: The fixed part of each '));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^rpi-workbench: warning: The fixed part of each Research request .* of the 12,288 a request may fill in a context window of 16,384 tokens/);
    expect(warnings[0]).toContain('Settings → Context window (on the command line: --context-window <tokens>).');

    oneItemRun();
    const roomy = await cli.run(['run', root, 'Look again', '--context-window', '65536', ...model()]);
    expect(roomy.code).toBe(0);
    expect(roomy.stderr).not.toContain('The fixed part of each');
  });
});
