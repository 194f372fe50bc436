import { chmod } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'vitest';
import type { WorkbenchEvent } from '../../engine/contract/index.js';
import type { RunOptions, Workbench } from '../../engine/index.js';
import type { FakeLlm, ScriptedTurn } from './fakeLlm/index.js';
import { fakeModelOptions, recordEvents } from './rpiScript.js';
import { startRun } from './startRun.js';
import { writeTree } from './tempFolder.js';

export interface OneRun {
  /** An empty folder of the test's own. */
  root: string;
  llm: FakeLlm;
  /** Opens a workbench the test closes (`useOpenedWorkbenches`). */
  open: (folder: string, options?: RunOptions) => Promise<Workbench>;
  /** The project before the run, and the modes some of its files must have. */
  files?: Record<string, string>;
  modes?: Record<string, number>;
  /** What the model answers through the whole run: research, plan, each step's calls and end, the summary. */
  turns: ScriptedTurn[];
  /** The request sent. */
  request: string;
}

export interface FolderAfterOneRun {
  root: string;
  workbench: Workbench;
  /** Every event since the folder was opened. */
  events: WorkbenchEvent[];
  /** The request's message and its run. */
  messageId: string;
  runId: string;
}

/** Opens `root` holding `files` on the fake model, sends one request and waits until its run finished done. */
export async function folderAfterOneRun({ root, llm, open, files = {}, modes = {}, turns, request }: OneRun): Promise<FolderAfterOneRun> {
  await writeTree(root, files);
  for (const [file, mode] of Object.entries(modes)) await chmod(path.join(root, file), mode);
  llm.enqueue(...turns);
  const workbench = await open(root, fakeModelOptions(llm));
  const events = recordEvents(workbench);
  const started = await startRun(workbench, request);
  expect((await started.finished).status).toBe('done');
  return { root, workbench, events, messageId: started.messageId, runId: started.runId };
}
