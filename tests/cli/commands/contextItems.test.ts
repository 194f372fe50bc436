import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseJsonEvents, useCli } from '../../support/cliProcess.js';
import { useFakeLlm } from '../../support/fakeLlm/useFakeLlm.js';
import { firstUserText, phaseOfRequest, say } from '../../support/rpiScript.js';
import { useTempFolders, writeTree } from '../../support/tempFolder.js';

const plan = '# Execution Plan\n\n## Items\n- [ ] 1. Port — change the port in src/config.ts\n';

describe('rpi-workbench run with context items', () => {
  const tempFolder = useTempFolders('rpi-cli-items-');
  const llm = useFakeLlm();
  const cli = useCli();

  it('--context and @path words deliver the files’ content to Research, Plan and Implement, and history shows them', async () => {
    const root = await tempFolder();
    await writeTree(root, { 'src/config.ts': 'export const port = 8080; // FROM-CONTEXT-FLAG\n', 'docs/deploy.md': 'Deploy with FROM-AT-WORD\n' });
    llm().enqueue(say('Found the port.'), say(plan), say('Changed it.'), say('The port is changed.'));

    const run = await cli.run(['run', root, 'Change the port as @docs/deploy.md says; mail me@example.com', '--context', 'src/config.ts', '--json', '--yes', '--base-url', llm().baseUrl, '--model', 'fake-model']);

    expect(run.code).toBe(0);
    const contexts = llm().chatRequests().map((request) => ({ phase: phaseOfRequest(request), text: firstUserText(request) }));
    expect(contexts.map(({ phase }) => phase)).toEqual(['research', 'plan', 'implement', 'summary']);
    for (const { phase, text } of contexts.slice(0, 3)) {
      expect(text, phase ?? '').toContain('FROM-CONTEXT-FLAG');
      expect(text, phase ?? '').toContain('FROM-AT-WORD');
    }
    // The request keeps its words as written.
    expect(contexts[0]?.text).toContain('Change the port as @docs/deploy.md says; mail me@example.com');
    expect(parseJsonEvents(run.stdout).find((event) => event.type === 'context-items-read')).toMatchObject({ phase: 'research', items: ['src/config.ts', 'docs/deploy.md'] });

    const history = await cli.run(['history', root]);
    expect(history.code).toBe(0);
    expect(history.stdout).toMatch(/Change the port as @docs\/deploy\.md says.*\n\s+attached: src\/config\.ts, docs\/deploy\.md\n/);
    const json = await cli.run(['history', root, '--json']);
    const [request] = json.stdout.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(request?.context).toEqual([
      { kind: 'file', path: 'src/config.ts' },
      { kind: 'file', path: 'docs/deploy.md' },
    ]);
  });

  it('a --context path that is not in the folder is a usage error (exit 2) and nothing is created', async () => {
    const root = await tempFolder();
    await writeTree(root, { 'README.md': '# demo\n' });
    const run = await cli.run(['run', root, 'Do it', '--context', 'src/missing.ts', '--yes', '--base-url', llm().baseUrl, '--model', 'fake-model']);
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe(`rpi-workbench: --context src/missing.ts: there is no such file or folder in ${root} (paths are relative to the project folder).`);
    expect(existsSync(path.join(root, '.workbench'))).toBe(false);
    expect(llm().chatRequests()).toEqual([]);
  });
});
