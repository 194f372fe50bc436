import { describe, expect, it } from 'vitest';
import { parseJsonEvents, useCli } from '../../support/cliProcess.js';
import { useFakeLlm } from '../../support/fakeLlm/useFakeLlm.js';
import { call, phaseOfRequest, requestText, say } from '../../support/rpiScript.js';
import { useTempFolders, writeTree } from '../../support/tempFolder.js';

const rootRules = 'Run `make check` before calling a step done.';
const apiRules = 'Handlers in src/api return Result values, never throw.';

describe('rpi-workbench run with project instructions', () => {
  const tempFolder = useTempFolders('rpi-cli-instructions-');
  const llm = useFakeLlm();
  const cli = useCli();

  it('gives AGENTS.md to Research, Plan and every Implement item, the nested one to the item working under it, and names them', async () => {
    const root = await tempFolder();
    await writeTree(root, { 'AGENTS.md': `# Rules\n${rootRules}\n`, 'src/api/AGENTS.md': `${apiRules}\n`, 'src/api/users.ts': 'export {};\n', 'README.md': '# demo\n' });
    llm().enqueue(
      say('The project has an API folder.'),
      say('# Execution Plan\n\n## Items\n- [ ] 1. Notes — write NOTES.md\n- [ ] 2. Users handler — edit src/api/users.ts\n'),
      call('write_file', { path: 'NOTES.md', content: 'notes\n' }),
      say('Wrote NOTES.md.'),
      call('edit_file', { path: 'src/api/users.ts', old_text: 'export {};', new_text: 'export const users = [];' }),
      say('Edited src/api/users.ts.'),
      say('Added notes and a users list.'),
    );

    const run = await cli.run(['run', root, 'Add notes and edit src/api/users.ts', '--yes', '--base-url', llm().baseUrl, '--model', 'fake-model']);

    expect(run.code).toBe(0);
    expect(run.stderr).toContain('project instructions: AGENTS.md');
    const byPhase = llm().chatRequests().map((request) => ({ phase: phaseOfRequest(request), text: requestText(request) }));
    const phases = byPhase.filter(({ phase }) => phase !== 'summary');
    expect(new Set(phases.map(({ phase }) => phase))).toEqual(new Set(['research', 'plan', 'implement']));
    for (const { text } of phases) expect(text).toContain(rootRules);
    const implement = phases.filter(({ phase }) => phase === 'implement');
    // Two turns per item, in plan order: the notes item first, then the users handler.
    expect(implement).toHaveLength(4);
    const [readme, users] = [implement.slice(0, 2), implement.slice(2)];
    for (const { text } of users) expect(text).toContain(apiRules);
    // The item that names no file under src/api/ is not given that folder's rules.
    for (const { text } of readme) expect(text).not.toContain(apiRules);
  });

  it('--json carries which files were read; a folder without any sends no instructions section', async () => {
    const root = await tempFolder();
    await writeTree(root, { 'CLAUDE.md': `${rootRules}\n` });
    llm().enqueue(say('Read it.'), say('# Execution Plan\n\n## Items\n'), say('Nothing to change.'));
    const run = await cli.run(['run', root, 'Look around', '--json', '--yes', '--base-url', llm().baseUrl, '--model', 'fake-model']);
    expect(run.code).toBe(0);
    const read = parseJsonEvents(run.stdout).filter((event) => event.type === 'instructions-read');
    expect(read.length).toBeGreaterThan(0);
    expect(read[0]).toMatchObject({ files: ['CLAUDE.md'] });
    expect(requestText(llm().chatRequests()[0]!)).toContain(rootRules);

    const bare = await tempFolder();
    await writeTree(bare, { 'README.md': '# bare\n' });
    const before = llm().chatRequests().length;
    llm().enqueue(say('Read it.'), say('# Execution Plan\n\n## Items\n'), say('Nothing to change.'));
    const plain = await cli.run(['run', bare, 'Look around', '--json', '--yes', '--base-url', llm().baseUrl, '--model', 'fake-model']);
    expect(plain.code).toBe(0);
    expect(parseJsonEvents(plain.stdout).some((event) => event.type === 'instructions-read')).toBe(false);
    for (const request of llm().chatRequests().slice(before)) expect(requestText(request)).not.toContain('instructions for coding agents');
  });
});
