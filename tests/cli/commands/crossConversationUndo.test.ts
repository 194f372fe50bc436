import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse, quote } from 'shell-quote';
import { describe, expect, it } from 'vitest';
import { openWorkbench } from '../../../engine/index.js';
import { cliBin, useCli, watched } from '../../support/cliProcess.js';
import { useFakeLlm } from '../../support/fakeLlm/useFakeLlm.js';
import { betaRequest, interleavedConversations, workbenchDriver } from '../../support/interleavedConversations.js';
import { call, fakeModelOptions, planText, say } from '../../support/rpiScript.js';
import { useTempFolders } from '../../support/tempFolder.js';

const scriptBin = '/usr/bin/script';
const esc = '\u001b';
const bell = '\u0007';

describe('undo on the command line in one of several conversations', () => {
  const tempFolder = useTempFolders('rpi-cli-cross-undo-');
  const llm = useFakeLlm();
  const cli = useCli({ nodeReports: true });

  /** A folder with two conversations whose requests interleave (see interleavedConversations), closed again. */
  async function interleaved({ betaTitle }: { betaTitle?: string } = {}) {
    const root = await tempFolder();
    const workbench = await openWorkbench(root, fakeModelOptions(llm()));
    try {
      const conversations = await interleavedConversations(workbenchDriver(workbench), llm());
      if (betaTitle) await workbench.request('conversations:rename', { conversationId: conversations.beta.conversationId, title: betaTitle });
      return { root, ...conversations, text: (file: string) => readFile(path.join(root, file), 'utf8') };
    } finally {
      await workbench.close();
    }
  }

  it('without a terminal lists the conflicting file with the other conversation’s request, keeps its version and says which, and prints how to take the undo back', async () => {
    // A title that tries to retitle the terminal is shown, never obeyed.
    const { root, alpha, beta, text } = await interleaved({ betaTitle: `${esc}]0;owned${bell}Beta notes` });

    const undone = await cli.run(['undo', root, alpha.firstRequest, '--conversation', alpha.conversationId]);

    expect(undone.code).toBe(0);
    expect(undone.stdout).not.toContain(esc);
    expect(undone.stdout).toContain(
      `A file this undo would put back was changed since by another conversation:\n  shared.txt  changed since by "${betaRequest}" (${beta.request}) in the conversation "]0;owned Beta notes" (${beta.conversationId})\n`,
    );
    expect(undone.stdout).toContain('No terminal to ask on: each of them keeps the other conversation’s version.');
    expect(undone.stdout).toContain('Restored 3 files:\n  made/new.txt\n  mine.txt\n  shell.txt\n');
    expect(undone.stdout).toContain('Kept another conversation\'s version of 1 file:\n  shared.txt\n');
    expect(await text('shared.txt')).toBe('beta\n');
    expect(await text('mine.txt')).toBe('mine base\n');
    expect(await text('other.txt')).toBe('beta other\n');

    // The command it names takes the undo back.
    const line = undone.stdout.split('\n').find((candidate) => candidate.includes('to take this undo back: '))!;
    const command = parse(line.slice(line.indexOf(': ') + 2)) as string[];
    expect(command.slice(0, 3)).toEqual(['rpi-workbench', 'take-back', root]);
    const takenBack = await cli.run(command.slice(1));
    expect(takenBack.code).toBe(0);
    expect(await text('mine.txt')).toBe('alpha mine again\n');
    expect(await text('made/new.txt')).toBe('alpha new\n');
    expect(await text('shared.txt')).toBe('beta\n');
  });

  it('regenerate without a terminal undoes by the same rules: lists the conflicting file on stderr, keeps it, and sends the request again', async () => {
    const { root, alpha, beta, text } = await interleaved();
    llm().enqueue(say('Again'), say(planText('Again step')), call('write_file', { path: 'mine.txt', content: 'regenerated\n' }), say('done'), say('Regenerated.'));

    const regenerated = await cli.run(['regenerate', root, alpha.firstRequest, '--conversation', alpha.conversationId, '--yes', '--base-url', llm().baseUrl, '--model', 'fake-model']);

    expect(regenerated.code).toBe(0);
    expect(regenerated.stderr).toContain(`  shared.txt  changed since by "${betaRequest}" (${beta.request})`);
    expect(regenerated.stderr).toContain('No terminal to ask on: each of them keeps the other conversation’s version.');
    expect(await text('shared.txt')).toBe('beta\n');
    expect(await text('mine.txt')).toBe('regenerated\n');
    expect(await text('other.txt')).toBe('beta other\n');
  });

  it.skipIf(!existsSync(scriptBin))('on a terminal asks for each conflicting file, and takes this conversation’s version when told', async () => {
    const { root, alpha, text } = await interleaved();
    const command = quote(['stty', 'cols', '200']) + ' && ' + quote([process.execPath, cliBin, 'undo', root, alpha.firstRequest, '--conversation', alpha.conversationId]);
    const child = spawn(scriptBin, ['-qefc', command, '/dev/null'], { env: cli.environment(), stdio: ['pipe', 'pipe', 'pipe'] });
    cli.track(child);
    const terminal = watched(child);

    const question = `shared.txt: [k]eep "${betaRequest}"'s version (Enter) or [t]ake this conversation's? > `;
    await terminal.waitFor('stdout', question);
    child.stdin.write('x\r');
    // Answered once the question is asked again: Enter typed before it answers nothing.
    const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    await terminal.waitFor('stdout', new RegExp(`${escaped('Type k to keep the other conversation’s version, or t to take this one’s.')}[^]*${escaped(question)}`));
    child.stdin.write('t\r');
    const done = await terminal.exited;

    expect(done.code).toBe(0);
    expect(done.stdout).not.toContain('No terminal to ask on');
    expect(done.stdout).toContain('Restored 4 files:');
    expect(await text('shared.txt')).toBe('base\n');
    expect(await text('mine.txt')).toBe('mine base\n');
    expect(await text('other.txt')).toBe('beta other\n');
  });
});
