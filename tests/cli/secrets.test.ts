import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useCli } from '../support/cliProcess.js';
import { useFakeLlm } from '../support/fakeLlm/useFakeLlm.js';
import { call, planText, say } from '../support/rpiScript.js';
import { useTempFolders } from '../support/tempFolder.js';

const apiKey = 'sk-proj-Abc123Def456Ghi789Jkl0';

/** Credentials a developer's shell commonly holds, each of a kind the name filter alone once missed or the value gives away. */
const environmentSecrets = {
  OPENAI_API_KEY: apiKey,
  AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMIK7MDENGbPxRfiCYEXAMPLEKEY',
  GITHUB_TOKEN: 'ghp_0123456789abcdefghijABCDEFGHIJ012345',
  NPM_CONFIG__AUTH: 'bnBtdXNlcjpucG1wYXNzd29yZA==',
  DATABASE_URL: 'postgres://app:hunter2-db-pass@db.internal:5432/app',
  INNOCENT_LOOKING: 'xoxb-1234567890-abcdefghijkl',
};

/**
 * What a command steered by the model would try: its parent's environment and command line through
 * /proc, then every ancestor's (stopping at the first one the command cannot read or pid 1), its own
 * environment, and a file in the folder that holds the key.
 */
const snoop = [
  'echo "== notes"; cat notes.txt',
  'p=$PPID; n=0',
  'while [ "$p" -gt 1 ] && [ $n -lt 12 ]; do',
  '  echo "== environ of $p"; tr "\\0" "\\n" < /proc/$p/environ || break',
  '  echo "== cmdline of $p"; tr "\\0" " " < /proc/$p/cmdline; echo',
  "  p=$(sed 's/.*) //' /proc/$p/stat | cut -d' ' -f2); n=$((n+1))",
  'done',
  'echo "== env"; env',
].join('\n');

describe('secrets stay out of the agent\'s reach', () => {
  const tempFolder = useTempFolders('rpi-cli-secrets-');
  const llm = useFakeLlm({ apiKey });
  const cli = useCli();

  async function snoopingRun(args: string[], env: Record<string, string>) {
    const root = await tempFolder();
    await writeFile(path.join(root, 'notes.txt'), `the key is ${apiKey} and the database is ${environmentSecrets.DATABASE_URL}\n`);
    llm().enqueue(say('A folder with notes.'), say(planText('Look around')), call('run_command', { command: snoop }), say('Looked.'), say('Done.'));
    const run = await cli.run(['run', root, 'Look around', '--json', '--yes', '--base-url', llm().baseUrl, '--model', 'fake-model', ...args], { env });
    const toolLog = await readFile(path.join(root, '.workbench', 'tool-log.jsonl'), 'utf8');
    const output = toolLog
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { result: string }).result)
      .join('\n');
    return { run, toolLog, output, sentToModel: JSON.stringify(llm().chatRequests()) };
  }

  it('keeps every credential of the environment out of what commands see in the engine, its ancestors and their own environment', async () => {
    const { run, toolLog, output, sentToModel } = await snoopingRun([], environmentSecrets);

    expect(run.code).toBe(0);
    // The key still reached the server it is meant for.
    expect(llm().requests.filter((request) => request.path === '/v1/chat/completions').every((request) => request.headers.authorization === `Bearer ${apiKey}`)).toBe(true);
    // The command did read the engine's environment: the names are there, their values are not.
    expect(output).toMatch(/== environ of \d+\n/);
    expect(output).toMatch(/\nOPENAI_API_KEY=\*{10,}\n/);
    expect(output).toMatch(/\nGITHUB_TOKEN=\*{10,}\n/);
    expect(output).toMatch(/\nPATH=/);
    for (const [name, value] of Object.entries(environmentSecrets)) {
      expect(toolLog, name).not.toContain(value);
      expect(sentToModel, name).not.toContain(value);
      expect(run.stdout, name).not.toContain(value);
    }
    expect(toolLog).not.toContain('hunter2-db-pass');
    // The file's copies of the key and the database URL are masked before they were logged or sent.
    expect(output).toContain('the key is [hidden: API key] and the database is [hidden: DATABASE_URL]');
    expect(sentToModel).toContain('the key is [hidden: API key] and the database is [hidden: DATABASE_URL]');
  });

  it('overwrites a key given with --api-key in the command line every process can read', async () => {
    const { run, toolLog, output, sentToModel } = await snoopingRun(['--api-key', apiKey], { COPY_UNDER_ANOTHER_NAME: apiKey });

    expect(run.code).toBe(0);
    expect(output).toMatch(new RegExp(`== cmdline of \\d+\\n[^\\n]*rpi-workbench[^\\n]*--api-key \\*{${apiKey.length}} `));
    expect(output).toMatch(/\nCOPY_UNDER_ANOTHER_NAME=\*{10,}\n/);
    expect(toolLog).not.toContain(apiKey);
    expect(sentToModel).not.toContain(apiKey);
    expect(output).toContain('the key is [hidden: API key]');
  });
});
