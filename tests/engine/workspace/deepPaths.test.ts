import path from 'node:path';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { WorkbenchEvent } from '../../../engine/contract/index.js';
import { PathSearch } from '../../../engine/context/pathSearch.js';
import { CheckpointStore } from '../../../engine/checkpoints/checkpointStore.js';
import { changedFilesSince } from '../../../engine/rpi/changedFiles.js';
import { getFileMap } from '../../../engine/tools/getFileMap.js';
import { listFiles } from '../../../engine/tools/listFiles.js';
import { searchFiles } from '../../../engine/tools/searchFiles.js';
import { tableGetMap } from '../../../engine/tools/tableGetMap.js';
import { countFiles } from '../../../engine/workspace/walkFiles.js';
import { UnreachableSubtrees, type UnreachableSubtree } from '../../../engine/workspace/unreachable.js';
import { firstBeyond, makeDeepFolders, useDeepTempFolders } from '../../support/deepFolders.js';
import { useFakeLlm } from '../../support/fakeLlm/useFakeLlm.js';
import { useOpenedWorkbenches } from '../../support/openedWorkbenches.js';
import { call, fakeModelOptions, planText, recordEvents, requestText, say } from '../../support/rpiScript.js';
import { startRun } from '../../support/startRun.js';
import { writeTree } from '../../support/tempFolder.js';
import { runTool, toolContextFor } from '../../support/toolContext.js';
import { toolLogFile } from '../../../engine/store/toolLog.js';

const linuxOnly = process.platform !== 'linux';

/** How a skipped subtree is named: too long to print whole, so its depth says which one it is. */
const named = (relPath: string) => `${relPath.split('/').length.toLocaleString('en-US')} levels down`;

describe.skipIf(linuxOnly)('a folder holding a path beyond the system’s limit (3,000 folders, 6,000 characters deep)', () => {
  const tempFolder = useDeepTempFolders('rpi-hostile-deep-');
  const llm = useFakeLlm();
  const open = useOpenedWorkbenches();

  async function deepProject(): Promise<{ root: string; beyond: string }> {
    const root = await tempFolder();
    await writeTree(root, { 'README.md': '# demo\nthe needle is here\n', 'data.csv': 'a,b\n1,2\n' });
    makeDeepFolders(root);
    return { root, beyond: firstBeyond(root) };
  }

  // Every walk of such a tree is slow (each listing resolves a path of thousands of names), hence the long timeouts.
  it('every walk skips the subtree it cannot reach, says which one and why, and goes on', { timeout: 120_000 }, async () => {
    const { root, beyond } = await deepProject();
    const skipped: UnreachableSubtree[] = [];
    expect(await countFiles(root, { onUnreachable: (subtree) => skipped.push(subtree) })).toBe(2);
    expect(skipped).toEqual([{ relPath: beyond, reason: expect.stringMatching(/^its full path is 4,09\d bytes; Linux takes paths of less than 4,096 bytes \(PATH_MAX\)$/) }]);

    const context = await toolContextFor(root);
    const results = [
      await runTool(listFiles, { recursive: true }, context),
      await runTool(getFileMap, {}, context),
      await runTool(searchFiles, { pattern: 'needle' }, context),
      await runTool(tableGetMap, {}, context),
    ];
    for (const text of results) expect(text).toContain(named(beyond));
    expect(results[0]).toContain('README.md');
    expect(results[2]).toContain('README.md:2: the needle is here');
    expect(results[3]).toContain('data.csv');

    const paths = new PathSearch({ root, onUnreachable: (subtree) => skipped.push(subtree) });
    expect((await paths.search('READ')).matches.map((match) => match.path)).toContain('README.md');
    expect(await changedFilesSince(root, toolLogFile(path.join(root, '.workbench')), 0, { onUnreachable: (subtree) => skipped.push(subtree) })).toEqual(
      expect.arrayContaining([expect.objectContaining({ path: 'README.md' })]),
    );
    expect(skipped.map((subtree) => subtree.relPath)).toEqual([beyond, beyond, beyond]);
  });

  it('checkpoints record the rest, and a restore says the subtree is not covered', { timeout: 120_000 }, async () => {
    const { root, beyond } = await deepProject();
    const warnings: string[] = [];
    const stateDir = `${root}/.workbench`;
    const store = await CheckpointStore.open(root, stateDir, { unreachable: new UnreachableSubtrees((message) => warnings.push(message)) });
    const before = await store.snapshot({ reason: 'run', messageId: 'm1' });
    expect(before.fileCount).toBe(2); // README.md and data.csv; the subtree is recorded as unreadable, not as a file
    expect(before.notes.join('\n')).toContain(named(beyond));
    await writeTree(root, { 'new.txt': 'new\n' });

    const restored = await store.restore(before.id);

    expect(restored).toEqual([{ path: 'new.txt', kind: 'file', change: 'removed' }]);
    expect(existsSync(`${root}/new.txt`)).toBe(false);
    expect(warnings.filter((warning) => warning.includes(named(beyond)))).toEqual([
      expect.stringMatching(/^a\/a\/a.* cannot be reached \(its full path is .*\)\. .*undo/),
      expect.stringMatching(/^Undo left a\/a\/a.* as it was/),
    ]);
  });

  it('a whole run completes with one warning naming the subtree, and the model is refused a path beyond the limit', { timeout: 240_000 }, async () => {
    const { root, beyond } = await deepProject();
    const tooDeep = `${'b/'.repeat(3000)}x.txt`;
    llm().enqueue(
      call('list_files', { recursive: true }),
      say('A README, a CSV, and a very deep folder.'),
      say(planText('Greeting')),
      call('write_file', { path: tooDeep, content: 'x\n' }),
      call('write_file', { path: 'greeting.txt', content: 'hi\n' }),
      say('Wrote greeting.txt.'),
      say('Added **greeting.txt**.'),
    );
    // The engine walks this slow tree between requests; on a loaded machine (CI) an answer once reached the
    // client later than the shared options' 1.5 s, and the retry took the next scripted turn: hence a minute.
    // Retries stay on, as in the app: with none, any passing failure of a model call fails the run (two full
    // local runs saw it fail early, in 21 s; the error was not kept, and the assertion below now prints it).
    const patient = { firstByteTimeoutMs: 60_000, idleTimeoutMs: 60_000, maxRetries: 2, retryBaseDelayMs: 10 };
    const workbench = await open(root, fakeModelOptions(llm(), { llmClient: patient }));
    const events = recordEvents(workbench);

    const started = await startRun(workbench, 'Add a greeting');
    const result = await started.finished;

    expect(result, result.error).toMatchObject({ status: 'done' });
    expect(existsSync(`${root}/greeting.txt`)).toBe(true);
    expect(existsSync(`${root}/b`)).toBe(false);
    const warnings = events.flatMap((event: WorkbenchEvent) => (event.type === 'warning' ? [event.message] : []));
    expect(warnings).toEqual([expect.stringContaining(named(beyond))]);
    const refusal = llm().chatRequests().map(requestText).find((text) => text.includes('6,0'));
    expect(refusal).toMatch(/Refused path .*: its full path would be 6,0\d\d bytes; Linux takes paths of less than 4,096 bytes \(PATH_MAX\); choose a shorter path/);

    const undone = await workbench.request('session:undo', { messageId: started.messageId });
    expect(undone.restoredFiles).toContain('greeting.txt');
    expect(events.flatMap((event) => (event.type === 'warning' ? [event.message] : [])).slice(1)).toEqual([expect.stringMatching(/^Undo left a\/a\/a.* as it was/)]);
  });
});
