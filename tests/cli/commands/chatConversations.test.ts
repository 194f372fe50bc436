import type { ConversationSummary } from '../../../engine/contract/index.js';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { quote } from 'shell-quote';
import { describe, expect, it } from 'vitest';
import { cliBin, useCli, watched } from '../../support/cliProcess.js';
import { conversationFolders } from '../../support/conversationFolders.js';
import { useFakeLlm } from '../../support/fakeLlm/useFakeLlm.js';
import { planText, say } from '../../support/rpiScript.js';
import { useTempFolders } from '../../support/tempFolder.js';

/** A whole run that changes nothing: research, an empty plan, the summary. */
const answered = (summary: string) => [say('Looked at the folder.'), say(planText()), say(summary)];

/** A line of `conversations --json`: the contract's summary. */
type Listed = ConversationSummary;

/** util-linux `script` gives the CLI a real pseudo-terminal for stdin, stdout and stderr. */
const scriptBin = '/usr/bin/script';

// Each test runs whole requests through the CLI: on a loaded 2-core machine that can take longer than
// the default ceiling, so these get a longer one (nothing here waits on time).
describe('chat: /new, /conversations, /switch, /rename', { timeout: 90_000 }, () => {
  const tempFolder = useTempFolders('rpi-cli-chat-convs-');
  const llm = useFakeLlm();
  const cli = useCli({ nodeReports: true });
  const model = () => ['--base-url', llm().baseUrl, '--model', 'fake-model'];

  const listed = async (root: string): Promise<Listed[]> =>
    (await cli.run(['conversations', root, '--json'])).stdout
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Listed);

  /** The id of the conversation whose history holds `request`. */
  async function conversationWith(root: string, request: string): Promise<string> {
    for (const [id, dir] of Object.entries(await conversationFolders(root))) {
      if ((await readFile(path.join(dir, 'conversation.jsonl'), 'utf8')).includes(request)) return id;
    }
    throw new Error(`no conversation holds "${request}"`);
  }

  it('piped: /new starts a conversation the next request goes to, /conversations lists them, /rename titles it, /switch goes back; history and runs stay apart', async () => {
    const root = await tempFolder();
    llm().enqueue(...answered('Parsed.'), ...answered('Reported.'), ...answered('Parsed again.'));
    const child = spawn(process.execPath, [cliBin, 'chat', root, ...model()], { env: cli.environment(), stdio: ['pipe', 'pipe', 'pipe'] });
    cli.track(child);
    const session = watched(child);
    const type = (...lines: string[]) => child.stdin.write(lines.map((line) => `${line}\n`).join(''));

    type('Parse the statement');
    await session.waitFor('stdout', 'Parsed.\n');
    const first = await conversationWith(root, 'Parse the statement');
    type('/new', 'Write the report');
    await session.waitFor('stdout', 'Reported.\n');
    const second = await conversationWith(root, 'Write the report');
    expect(second).not.toBe(first);
    type('/conversations', '/rename Monthly \u001b[31mreport', '/history');
    await session.waitFor('stderr', /Renamed \S+ to "Monthly \[31mreport"\./);
    type(`/switch ${first}`, '/history', 'Parse it again', '/switch c-nope', '/rename ', '/new extra');
    child.stdin.end();
    const done = await session.exited;

    // /new extra, /switch c-nope and /rename without a title failed: without a terminal that makes the exit 1.
    expect(done.code).toBe(1);
    const table = done.stdout.slice(done.stdout.indexOf('   ID'));
    expect(table.split('\n').slice(0, 3)).toEqual([
      expect.stringMatching(/^ {3}ID +CREATED +UPDATED +REQUESTS +TITLE$/),
      expect.stringMatching(new RegExp(`^\\* +${second} +\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d +\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d +1 +Write the report$`)),
      expect.stringMatching(new RegExp(`^ +${first} +.+ +1 +Parse the statement$`)),
    ]);
    // Each /history shows its own conversation only.
    const histories = done.stdout.split(/^ID +ROLE +TIME +MESSAGE$/m).slice(1);
    expect(histories).toHaveLength(2);
    expect(histories[0]).toContain('Write the report');
    expect(histories[0]).not.toContain('Parse the statement');
    expect(histories[1]).toContain('Parse the statement');
    expect(histories[1]).not.toContain('Write the report');
    expect(done.stderr).toMatch(new RegExp(`New conversation ${second}: the next request starts its history`));
    expect(done.stderr).toContain(`Switched to ${first} "Parse the statement" (1 request): /history shows it.`);
    expect(done.stderr).toContain('There is no conversation "c-nope" in this folder');
    expect(done.stderr).toContain('/rename needs the new title');
    expect(done.stderr).toContain('/new takes no argument. Nothing was run.');
    expect(done.stdout + done.stderr).not.toContain('\u001b');

    // After the switch, the request went to the first conversation.
    const after = await listed(root);
    expect(after.map(({ id, title, requests, running }) => ({ id, title, requests, running })).sort((a, b) => a.id.localeCompare(b.id))).toEqual(
      [
        { id: first, title: 'Parse the statement', requests: 2, running: false },
        { id: second, title: 'Monthly [31mreport', requests: 1, running: false },
      ].sort((a, b) => a.id.localeCompare(b.id)),
    );
  });

  it.skipIf(!existsSync(scriptBin))('on a terminal: /help lists the conversation commands, /conversations says there are none yet, /new then a request goes to it', async () => {
    const root = await tempFolder();
    llm().enqueue(...answered('Done here.'));
    const command = `${quote(['stty', 'cols', '160'])} && exec ${quote([process.execPath, cliBin, 'chat', root, ...model()])}`;
    const child = spawn(scriptBin, ['-qefc', command, '/dev/null'], { env: cli.environment(), stdio: ['pipe', 'pipe', 'pipe'] });
    cli.track(child);
    const terminal = watched(child);
    const prompt = `${path.basename(root)} · fake-model › `;
    const at = async (count: number, keys: string) => {
      await terminal.waitFor('stdout', new RegExp(`(${prompt.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[^]*){${count}}`));
      child.stdin.write(keys);
    };

    await at(1, '/help\r');
    await at(2, '/conversations\r');
    await at(3, '/new\r');
    await at(4, 'Start here\r');
    await at(5, '/conversations\r');
    await at(6, '\x04');
    const done = await terminal.exited;

    expect(done.code).toBe(0);
    const screen = done.stdout;
    for (const usage of ['/new', '/conversations', '/switch <id>', '/rename <title>']) expect(screen).toContain(`  ${usage} `);
    expect(screen).toContain(`No conversations yet in ${root}: the first request starts one.`);
    const [only] = await listed(root);
    expect(only).toMatchObject({ title: 'Start here', requests: 1 });
    expect(screen).toMatch(new RegExp(`\\* +${only!.id} +.+ +1 +Start here`));
  });
});
