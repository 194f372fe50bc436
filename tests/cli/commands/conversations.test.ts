import type { ConversationSummary } from '../../../engine/contract/index.js';
import { readdir } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { useCli } from '../../support/cliProcess.js';
import { useFakeLlm } from '../../support/fakeLlm/useFakeLlm.js';
import { call, planText, say } from '../../support/rpiScript.js';
import { useTempFolders, writeTree } from '../../support/tempFolder.js';

/** A run that writes one file. */
const writes = (name: string) => [say(`${name} research`), say(planText(`${name} step`)), call('write_file', { path: `${name}.txt`, content: `${name}\n` }), say('done'), say(`${name} done.`)];

/** A line of `conversations --json`: the contract's summary. */
type Listed = ConversationSummary;

describe('rpi-workbench conversations and --conversation', { timeout: 180_000 }, () => {
  const tempFolder = useTempFolders('rpi-cli-conversations-');
  const llm = useFakeLlm();
  const cli = useCli();
  const model = () => ['--base-url', llm().baseUrl, '--model', 'fake-model', '--yes'];
  const listed = async (root: string) => (await cli.run(['conversations', root, '--json'])).stdout.trim().split('\n').map((line) => JSON.parse(line) as Listed);

  it('run --new starts a conversation, --conversation picks one for run and history, and conversations lists them', async () => {
    const root = await tempFolder();
    await writeTree(root, { 'README.md': '# demo\n' });
    llm().enqueue(...writes('alpha'));
    expect((await cli.run(['run', root, 'Alpha', 'request', ...model()])).code).toBe(0);
    llm().enqueue(...writes('beta'));
    expect((await cli.run(['run', root, 'Beta request', '--new', ...model()])).code).toBe(0);

    const [beta, alpha] = await listed(root);
    expect([beta, alpha].map((conversation) => conversation && { title: conversation.title, requests: conversation.requests, running: conversation.running })).toEqual([
      { title: 'Beta request', requests: 1, running: false },
      { title: 'Alpha request', requests: 1, running: false },
    ]);
    expect(Object.keys(beta!).sort()).toEqual(['created', 'id', 'requests', 'running', 'title', 'updated']);

    llm().enqueue(...writes('again'));
    expect((await cli.run(['run', root, 'Alpha again', '--conversation', alpha!.id, ...model()])).code).toBe(0);
    const history = await cli.run(['history', root, '--json', '--conversation', alpha!.id]);
    expect(history.stdout.trim().split('\n').map((line) => (JSON.parse(line) as { text: string }).text)).toEqual(['Alpha request', 'alpha done.', 'Alpha again', 'again done.']);
    // Without --conversation: the most recent, now Alpha.
    const latest = await cli.run(['history', root, '--json']);
    expect(latest.stdout).toContain('Alpha again');
    expect(latest.stdout).not.toContain('Beta');
    expect((await cli.run(['history', root, '--json', '--conversation', beta!.id])).stdout).not.toContain('Alpha');

    const table = await cli.run(['conversations', root]);
    expect(table.code).toBe(0);
    expect(table.stdout.split('\n')[0]).toMatch(/^ID\s+CREATED\s+UPDATED\s+REQUESTS\s+TITLE$/);
    expect(table.stdout).toMatch(new RegExp(`${alpha!.id}\\s+\\S+ \\S+\\s+\\S+ \\S+\\s+2\\s+Alpha request`));
  });

  it('refuses an unknown conversation and --new with --conversation, starting nothing', async () => {
    const root = await tempFolder();
    llm().enqueue(...writes('alpha'));
    expect((await cli.run(['run', root, 'Alpha', ...model()])).code).toBe(0);
    const unknown = await cli.run(['run', root, 'More', '--conversation', 'c-\u001b[31mnope', ...model()]);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain('There is no conversation "c- [31mnope" in this folder');
    const both = await cli.run(['run', root, 'More', '--new', '--conversation', 'c-0000', ...model()]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('Give --new or --conversation, not both');
    expect(await listed(root)).toHaveLength(1);
  });

  it('lists nothing, creating nothing, in a folder never used', async () => {
    const root = await tempFolder();
    const listing = await cli.run(['conversations', root, '--json']);
    expect(listing).toMatchObject({ code: 0, stdout: '' });
    expect(await readdir(root)).toEqual([]);
    expect((await cli.run(['conversations', root])).stderr).toContain('No conversations yet in');
  });
});
