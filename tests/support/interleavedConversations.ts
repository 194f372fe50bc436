import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { StartedRun } from '../../engine/contract/index.js';
import type { Workbench } from '../../engine/index.js';
import type { FakeLlm } from './fakeLlm/index.js';
import { call, planText, say } from './rpiScript.js';

/** The project before the first request. */
export const interleavedFiles = { 'shared.txt': 'base\n', 'mine.txt': 'mine base\n', 'untouched.txt': 'untouched\n' };

export interface InterleavedConversations {
  alpha: { conversationId: string; firstRequest: string; secondRequest: string };
  beta: { conversationId: string; request: string; title: string };
}

/** The text of Beta's request, which the undo in Alpha names (its title too). */
export const betaRequest = 'Beta: reword the shared notes';

/** How the requests reach the folder: in process, or through a page's bridge. */
export interface ConversationDriver {
  folder: string;
  /** Sends a request (to the most recent conversation when none is named); resolves once its run ended done. */
  send(prompt: string, conversationId?: string): Promise<StartedRun>;
  /** Starts an empty conversation; its id. */
  newConversation(): Promise<string>;
}

/** Drives an open workbench in process. */
export function workbenchDriver(workbench: Workbench): ConversationDriver {
  return {
    folder: workbench.folder,
    async send(prompt, conversationId) {
      const run = await workbench.request('session:send', { prompt, ...(conversationId ? { conversationId } : {}) });
      const { status } = await workbench.finished(run.runId);
      if (status !== 'done') throw new Error(`The scripted run ${run.messageId} ended ${status}, not done.`);
      return run;
    },
    newConversation: async () => (await workbench.request('conversations:new')).id,
  };
}

/**
 * Two conversations with interleaved requests changing overlapping files, in a folder holding
 * interleavedFiles: Alpha's first request writes shared.txt and mine.txt, creates made/new.txt and, by a
 * command, shell.txt; then Beta's writes shared.txt and other.txt; then Alpha's second rewrites mine.txt.
 * Each run must end done (the folder approves every call by itself). No vitest here: e2e specs use it too.
 */
export async function interleavedConversations(driver: ConversationDriver, llm: FakeLlm): Promise<InterleavedConversations> {
  for (const [name, content] of Object.entries(interleavedFiles)) await writeFile(path.join(driver.folder, name), content);
  llm.enqueue(
    say('Alpha research'),
    say(planText('Alpha step')),
    call('write_file', { path: 'shared.txt', content: 'alpha\n' }),
    call('write_file', { path: 'mine.txt', content: 'alpha mine\n' }),
    call('write_file', { path: 'made/new.txt', content: 'alpha new\n' }),
    call('run_command', { command: 'echo alpha shell > shell.txt' }),
    say('done'),
    say('Alpha done.'),
  );
  const first = await driver.send('Alpha: start the notes');
  const beta = await driver.newConversation();
  llm.enqueue(
    say('Beta research'),
    say(planText('Beta step')),
    call('write_file', { path: 'shared.txt', content: 'beta\n' }),
    call('write_file', { path: 'other.txt', content: 'beta other\n' }),
    say('done'),
    say('Beta done.'),
  );
  const betaRun = await driver.send(betaRequest, beta);
  llm.enqueue(say('Alpha research again'), say(planText('Alpha again')), call('write_file', { path: 'mine.txt', content: 'alpha mine again\n' }), say('done'), say('Alpha again done.'));
  const second = await driver.send('Alpha: more notes', first.conversationId);
  return {
    alpha: { conversationId: first.conversationId, firstRequest: first.messageId, secondRequest: second.messageId },
    beta: { conversationId: beta, request: betaRun.messageId, title: betaRequest },
  };
}
