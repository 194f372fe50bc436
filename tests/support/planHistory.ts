import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'vitest';
import type { Workbench } from '../../engine/index.js';
import type { FakeLlm } from './fakeLlm/index.js';
import { planText, say } from './rpiScript.js';
import { startRun } from './startRun.js';
import { conversationDir } from './conversationDir.js';

/** The model's turns for a request of one step that is done: research, plan, the step, the summary. */
export const oneStep = (label: string) => [say(`Research for ${label}.`), say(planText(label)), say(`${label} done.`), say(`Summary of ${label}.`)];

/** A file kept in the plan history of a request. */
export const keptFile = (root: string, messageId: string, name: string) => path.join(conversationDir(root), 'runs', messageId, name);

/** The requests whose runs the plan history keeps, by id, sorted. */
export async function keptRuns(root: string): Promise<string[]> {
  const runs = path.join(conversationDir(root), 'runs');
  return existsSync(runs) ? (await readdir(runs)).sort() : [];
}

/** Sends a request, waits for its run to finish done, and gives its message id. */
export async function request(workbench: Workbench, text: string): Promise<string> {
  const started = await startRun(workbench, text);
  expect((await started.finished).status).toBe('done');
  return started.messageId;
}

/** Three requests of one step each ('One', 'Two', 'Three'), sent in turn and done; gives their message ids. */
export async function threeRequests(workbench: Workbench, llm: FakeLlm): Promise<[string, string, string]> {
  llm.enqueue(...oneStep('First'), ...oneStep('Second'), ...oneStep('Third'));
  return [await request(workbench, 'One'), await request(workbench, 'Two'), await request(workbench, 'Three')];
}
