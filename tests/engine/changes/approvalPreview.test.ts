import { chmod, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ApprovalSettings, EventOf, WorkbenchEvent } from '../../../engine/contract/index.js';
import type { Workbench } from '../../../engine/index.js';
import { useFakeLlm } from '../../support/fakeLlm/useFakeLlm.js';
import { useOpenedWorkbenches } from '../../support/openedWorkbenches.js';
import { call, fakeModelOptions, planText, recordEvents, say } from '../../support/rpiScript.js';
import { startRun } from '../../support/startRun.js';
import { useTempFolders, writeTree } from '../../support/tempFolder.js';

const ask: ApprovalSettings = { files: 'ask', commands: 'ask', timeoutSeconds: 600, reviewPlan: false };

/** The next approval request emitted from now on. */
function nextRequest(workbench: Workbench): Promise<EventOf<'approval-requested'>> {
  return new Promise((resolve) => {
    const stop = workbench.subscribe((event: WorkbenchEvent) => {
      if (event.type !== 'approval-requested') return;
      stop();
      resolve(event);
    });
  });
}

describe('what an approval would change', () => {
  const tempFolder = useTempFolders('rpi-preview-');
  const llm = useFakeLlm();
  const open = useOpenedWorkbenches();

  async function asking(...turns: Parameters<ReturnType<typeof llm>['enqueue']>) {
    const root = await tempFolder();
    await writeTree(root, { 'notes.txt': 'alpha\nbeta\ngamma\n', 'dir/a.txt': 'a\n', 'dir/b.txt': 'b\nb\n', 'run.sh': 'echo\n' });
    await chmod(path.join(root, 'run.sh'), 0o755);
    llm().enqueue(say('research'), say(planText('Change')), ...turns);
    const workbench = await open(root, { ...fakeModelOptions(llm()), approvals: async () => ask });
    const requested = nextRequest(workbench);
    const started = await startRun(workbench, 'Change');
    return { root, workbench, started, request: await requested };
  }

  it('write_file: the diff against the file as it is, its mode kept; an edit of the arguments is previewed again', async () => {
    const { workbench, request, started } = await asking(call('write_file', { path: 'run.sh', content: 'echo hi\n' }), say('done'), say('Done.'));
    const preview = await workbench.request('session:approval-preview', { requestId: request.requestId });
    expect(preview).toMatchObject({ problem: null, more: 0 });
    expect(preview.files).toHaveLength(1);
    expect(preview.files[0]).toMatchObject({ path: 'run.sh', status: 'modified', added: 1, removed: 1, wholeFile: true, after: { mode: 0o755 } });
    const edited = await workbench.request('session:approval-preview', { requestId: request.requestId, args: { path: 'fresh.txt', content: 'one\ntwo\n' } });
    expect(edited.files[0]).toMatchObject({ path: 'fresh.txt', status: 'added', added: 2, after: { mode: 0o644 } });
    await expect(workbench.request('session:approval-preview', { requestId: request.requestId, args: { path: 'x.txt' } })).rejects.toThrow('The edited arguments do not fit write_file: content:');
    await workbench.request('session:approve', { requestId: request.requestId, decision: 'approve' });
    await expect(workbench.request('session:approval-preview', { requestId: request.requestId })).rejects.toThrow('no longer waiting for an answer');
    await started.finished;
  });

  it('edit_file: the replacement as the tool would make it, or why it would fail', async () => {
    const { workbench, request, started } = await asking(call('edit_file', { path: 'notes.txt', old_text: 'beta', new_text: 'BETA' }), say('done'), say('Done.'));
    const preview = await workbench.request('session:approval-preview', { requestId: request.requestId });
    expect(preview.files[0]!.hunks[0]!.lines).toEqual([' alpha', '-beta', '+BETA', ' gamma']);
    const missing = await workbench.request('session:approval-preview', { requestId: request.requestId, args: { path: 'notes.txt', old_text: 'delta', new_text: 'x' } });
    expect(missing).toEqual({ files: [], more: 0, problem: 'old_text was not found in notes.txt. Read the file again and copy the exact current text (without line numbers).' });
    await workbench.request('session:approve', { requestId: request.requestId, decision: 'deny' });
    await started.finished;
  });

  it('delete_file of a folder lists every file it takes away; move_file renames; a taken destination is the problem', async () => {
    const { workbench, request, started, root } = await asking(call('delete_file', { path: 'dir' }), say('done'), say('Done.'));
    const deleted = await workbench.request('session:approval-preview', { requestId: request.requestId });
    expect(deleted.files.map(({ path: file, status, removed }) => [file, status, removed])).toEqual([
      ['dir/a.txt', 'deleted', 1],
      ['dir/b.txt', 'deleted', 2],
    ]);
    await expect(workbench.request('session:approval-preview', { requestId: request.requestId, args: {} })).rejects.toThrow('do not fit delete_file');
    expect((await workbench.request('session:approval-preview', { requestId: request.requestId, args: { path: 'none' } })).problem).toBe('none does not exist, so there is nothing to delete.');
    await workbench.request('session:approve', { requestId: request.requestId, decision: 'deny' });
    await started.finished;

    llm().enqueue(say('research'), say(planText('Move')), call('move_file', { from: 'notes.txt', to: 'docs/notes.txt' }), say('done'), say('Done.'));
    const requested = nextRequest(workbench);
    const second = await startRun(workbench, 'Move');
    const move = await requested;
    const renamed = await workbench.request('session:approval-preview', { requestId: move.requestId });
    expect(renamed.files).toEqual([expect.objectContaining({ path: 'docs/notes.txt', oldPath: 'notes.txt', status: 'renamed', added: 0, removed: 0 })]);
    expect((await workbench.request('session:approval-preview', { requestId: move.requestId, args: { from: 'notes.txt', to: 'run.sh' } })).problem).toBe('run.sh already exists, and move_file never overwrites, so this move would fail.');
    await workbench.request('session:approve', { requestId: move.requestId, decision: 'approve' });
    await second.finished;
    expect(await readFile(path.join(root, 'docs', 'notes.txt'), 'utf8')).toBe('alpha\nbeta\ngamma\n');
  });
});

describe('allow for the rest of this request', () => {
  const tempFolder = useTempFolders('rpi-request-scope-');
  const llm = useFakeLlm();
  const open = useOpenedWorkbenches();

  it('lets the request’s later file changes through, never a protected path, and not the next request', async () => {
    const root = await tempFolder();
    llm().enqueue(
      say('research'),
      say(planText('Write')),
      call('write_file', { path: 'a.txt', content: 'a\n' }),
      call('write_file', { path: 'b.txt', content: 'b\n' }),
      call('write_file', { path: '.env', content: 'X=1\n' }),
      say('done'),
      say('Done.'),
    );
    const workbench = await open(root, { ...fakeModelOptions(llm()), approvals: async () => ask });
    const events = recordEvents(workbench);
    const first = nextRequest(workbench);
    const started = await startRun(workbench, 'Write files');
    const request = await first;
    expect(request.canAllowForRequest).toBe(true);
    const protectedOne = nextRequest(workbench);
    await workbench.request('session:approve', { requestId: request.requestId, decision: 'approve', allowForRequest: true });
    const envRequest = await protectedOne;
    expect(envRequest.args).toMatchObject({ path: '.env' });
    expect(envRequest.canAllowForRequest).toBeUndefined();
    await expect(workbench.request('session:approve', { requestId: envRequest.requestId, decision: 'approve', allowForRequest: true })).rejects.toThrow('not offered');
    await workbench.request('session:approve', { requestId: envRequest.requestId, decision: 'deny' });
    await started.finished;
    expect(events.filter((event) => event.type === 'approval-requested')).toHaveLength(2);
    expect(await readFile(path.join(root, 'b.txt'), 'utf8')).toBe('b\n');

    llm().enqueue(say('research'), say(planText('Again')), call('write_file', { path: 'c.txt', content: 'c\n' }), say('done'), say('Done.'));
    const asked = nextRequest(workbench);
    const again = await startRun(workbench, 'Write another');
    await workbench.request('session:approve', { requestId: (await asked).requestId, decision: 'approve' });
    await again.finished;
  });
});
