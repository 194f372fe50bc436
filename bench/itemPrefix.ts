import { mkdtemp, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ChatCompletionCreateParams } from 'openai/resources/chat/completions';
import { openWorkbench } from '../engine/index.js';
import { requestTokens, startFakeLlm } from '../tests/support/fakeLlm/index.js';
import { call, fakeModelOptions, phaseOfRequest, planText, say } from '../tests/support/rpiScript.js';
import { writeTree } from '../tests/support/tempFolder.js';
import { startRun } from '../tests/support/startRun.js';

/**
 * How much of an Implement item's first request the next item's repeats, byte for byte from the start:
 * the share a provider's prompt cache can serve. Measured as issue 25 states it, on a 5-item job in a
 * folder of 150 files with an 8 KB AGENTS.md, each item editing one file; tokens as the fake's prompt
 * cache counts them (tools, then messages, o200k).
 */

const folders = ['api', 'core', 'ui', 'util', 'db'];
const modulePath = (index: number) => `src/${folders[index % folders.length]}/module${String(index).padStart(3, '0')}.ts`;

function projectFiles(): Record<string, string> {
  const files: Record<string, string> = { 'README.md': '# demo\n\nA service in five folders.\n' };
  for (let index = 0; index < 150; index += 1) files[modulePath(index)] = `export const value${index} = ${index};\n`.repeat(1 + (index % 7));
  let agents = '# Instructions for coding agents\n\n';
  for (let rule = 1; agents.length < 8192; rule += 1) agents += `- Rule ${rule}: keep functions small, name things for what they do, and cover every exported function with a vitest test.\n`;
  files['AGENTS.md'] = agents.slice(0, 8192);
  return files;
}

const edit = (index: number) => call('edit_file', { path: modulePath(index), old_text: `export const value${index} = ${index};`, new_text: `// Owned by the ${folders[index % folders.length]} team.\nexport const value${index} = ${index};` });

function sharedLength(a: readonly number[], b: readonly number[]): number {
  let length = 0;
  while (length < a.length && length < b.length && a[length] === b[length]) length += 1;
  return length;
}

/** For each pair of consecutive items, the share of the later one's first request that repeats the earlier one's. */
export async function consecutiveItemShares(): Promise<number[]> {
  const root = await realpath(await mkdtemp(path.join(os.tmpdir(), 'rpi-bench-prefix-')));
  const llm = await startFakeLlm();
  try {
    await writeTree(root, projectFiles());
    const labels = folders.map((folder) => folder[0]!.toUpperCase() + folder.slice(1));
    llm.enqueue(say('Findings: one module per folder needs an owner comment.'), say(planText(...labels)), ...labels.flatMap((_, index) => [edit(index), say('Done.')]), say('Summary.'));
    const workbench = await openWorkbench(root, fakeModelOptions(llm));
    try {
      const result = await (await startRun(workbench, 'Add an owner comment to the first module of each folder')).finished;
      if (result.status !== 'done') throw new Error(`the 5-item job ${result.status}: ${result.error ?? ''}`);
    } finally {
      await workbench.close();
    }
    const starts = llm.chatRequests().filter((request) => phaseOfRequest(request) === 'implement' && request.messages.length === 2);
    const tokens = await Promise.all(starts.map((request: ChatCompletionCreateParams) => requestTokens({ messages: request.messages, tools: request.tools ?? [] })));
    return tokens.slice(1).map((later, index) => sharedLength(tokens[index]!, later) / later.length);
  } finally {
    await llm.close();
    await rm(root, { recursive: true, force: true });
  }
}
