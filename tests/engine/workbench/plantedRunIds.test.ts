import { open as openFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useFakeLlm } from '../../support/fakeLlm/useFakeLlm.js';
import { useOpenedWorkbenches } from '../../support/openedWorkbenches.js';
import { fakeModelOptions, planText } from '../../support/rpiScript.js';
import { startRun } from '../../support/startRun.js';
import { useTempFolders, writeTree } from '../../support/tempFolder.js';
import { oneStep } from '../../support/planHistory.js';


/** A sparse file of `bytes`: as large as a planted one, without writing it. */
async function sparseFile(file: string, bytes: number): Promise<void> {
  const handle = await openFile(file, 'w');
  try {
    await handle.truncate(bytes);
  } finally {
    await handle.close();
  }
}

/** The plan history read from a planted `.workbench/`: odd ids and huge files are never taken at their word. */
describe('a planted plan history', () => {
  const tempFolder = useTempFolders('rpi-hostile-run-ids-');
  const llm = useFakeLlm();
  const open = useOpenedWorkbenches();

  it('gives ids such as "__proto__" and "constructor" no summary, and they cannot change what the others read', async () => {
    const root = await tempFolder();
    const line = (id: string, role: 'user' | 'assistant', text: string) => JSON.stringify({ id, role, text, ts: 1_700_000_000_000 });
    await writeTree(root, {
      '.workbench/conversation.jsonl': `${[line('constructor', 'user', 'One'), line('a-1', 'assistant', 'Done.'), line('__proto__', 'user', 'Two')].join('\n')}\n`,
      '.workbench/rpi/run.json': `${JSON.stringify({ messageId: '__proto__', request: 'Two', startedAt: 1_700_000_000_000 })}\n`,
      '.workbench/rpi/research.md': 'Planted research.\n',
      '.workbench/rpi/plan.md': planText('Planted one', 'Planted two'),
    });
    const workbench = await open(root);

    const { conversation, runs } = await workbench.request('workbench:snapshot');

    expect(conversation.map((message) => message.id)).toEqual(['constructor', 'a-1', '__proto__']);
    expect(runs).toEqual({});
    for (const id of ['constructor', '__proto__', 'toString', 'plan', 'research']) expect(runs?.[id]).toBeUndefined();
    expect(JSON.parse(JSON.stringify({ runs }))).toEqual({ runs: {} });
  });

  it('refuses a kept plan too large to read, naming it, where a snapshot or View plan would read it', async () => {
    const root = await tempFolder();
    const workbench = await open(root, fakeModelOptions(llm()));
    llm().enqueue(...oneStep('First'), ...oneStep('Second'));
    const started = await startRun(workbench, 'One');
    await started.finished;
    const first = started.messageId;
    const second = await startRun(workbench, 'Two');
    await second.finished;
    const kept = path.join(root, '.workbench', 'runs', first, 'plan.md');
    await rm(kept);
    await sparseFile(kept, 3 * 1024 ** 3);
    const refusal = 'The workbench state file plan.md is 3.0 GB, more than the 8.0 MB the workbench reads, so it was not read. Remove it and try again.';

    const snapshot = await workbench.request('workbench:snapshot');

    expect(Object.keys(snapshot.runs ?? {})).toEqual([second.messageId]);
    expect(snapshot.warnings).toContain(`${refusal} The plan history of that request is not shown.`);
    await expect(workbench.request('session:run-file', { messageId: first, file: 'plan' })).rejects.toThrow(refusal);
    expect(await workbench.request('session:run-file', { messageId: first, file: 'research' })).toEqual({ text: 'Research for First.' });

    // The current run's plan is read with the same cap.
    const current = path.join(root, '.workbench', 'rpi', 'plan.md');
    await rm(current);
    await sparseFile(current, 9 * 1024 * 1024);
    await expect(workbench.request('session:run-file', { messageId: second.messageId, file: 'plan' })).rejects.toThrow('plan.md is 9.0 MB, more than the 8.0 MB the workbench reads');
    await expect(workbench.request('workbench:snapshot')).rejects.toThrow('plan.md is 9.0 MB');
    await rm(current);
    await writeFile(current, planText('Small again'));
    expect((await workbench.request('workbench:snapshot')).runs?.[second.messageId]).toEqual({ research: true, plan: { done: 0, failed: 0, total: 1 }, checks: { passed: 0, failed: 0, denied: 0, none: 1 } });
  });
});
