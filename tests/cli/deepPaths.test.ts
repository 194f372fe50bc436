import { describe, expect, it } from 'vitest';
import { useCli } from '../support/cliProcess.js';
import { firstBeyond, makeDeepFolders, useDeepTempFolders } from '../support/deepFolders.js';
import { useFakeLlm } from '../support/fakeLlm/useFakeLlm.js';
import { call, planText, say } from '../support/rpiScript.js';
import { writeTree } from '../support/tempFolder.js';

describe.skipIf(process.platform !== 'linux')('rpi-workbench run on a folder holding a path beyond the system’s limit', () => {
  const tempFolder = useDeepTempFolders('rpi-cli-deep-');
  const llm = useFakeLlm();
  const cli = useCli();

  it('completes the run, with one warning naming the subtree it cannot reach', { timeout: 240_000 }, async () => {
    const root = await tempFolder();
    await writeTree(root, { 'README.md': '# demo\n' });
    makeDeepFolders(root);
    const beyond = firstBeyond(root);
    llm().enqueue(
      call('get_file_map', {}),
      say('A README and a very deep folder.'),
      say(planText('Greeting')),
      call('write_file', { path: 'greeting.txt', content: 'hi\n' }),
      say('Wrote greeting.txt.'),
      say('Added **greeting.txt**.'),
    );

    const run = await cli.run(['run', root, 'Add a greeting', '--yes', '--base-url', llm().baseUrl, '--model', 'fake-model']);

    expect(run.stderr).not.toContain('ENAMETOOLONG');
    expect(run.code).toBe(0);
    const warnings = run.stderr.split('\n').filter((line) => line.startsWith('rpi-workbench: warning:'));
    expect(warnings).toEqual([expect.stringContaining(`${beyond.split('/').length.toLocaleString('en-US')} levels down`)]);
    expect(warnings[0]).toMatch(/^rpi-workbench: warning: a\/a\/a.*…\/a\/a.* levels down\) cannot be reached \(its full path is 4,09\d bytes; Linux takes paths of less than 4,096 bytes \(PATH_MAX\)\)/);
    expect(run.stdout).toContain('Added **greeting.txt**.');
  });
});
