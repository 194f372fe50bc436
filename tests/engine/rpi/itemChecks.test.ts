import { access, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ApprovalSettings, EventOf, WorkbenchEvent } from '../../../engine/contract/index.js';
import { memoryFolderChecks } from '../../../engine/index.js';
import { eventsInTurn } from '../../support/eventsInTurn.js';
import { useFakeLlm } from '../../support/fakeLlm/useFakeLlm.js';
import { useOpenedWorkbenches } from '../../support/openedWorkbenches.js';
import { call, fakeModelOptions, phaseOfRequest, recordEvents, requestText, say } from '../../support/rpiScript.js';
import { startRun } from '../../support/startRun.js';
import { useTempFolders, writeTree } from '../../support/tempFolder.js';

/** Exits 0 when ledger.txt says "balanced", else prints what it found and exits 1. */
const ledgerCheck = `const fs = require('fs');
const text = fs.existsSync('ledger.txt') ? fs.readFileSync('ledger.txt', 'utf8').trim() : '(missing)';
if (text === 'balanced') { console.log('ledger ok'); process.exit(0); }
console.log('LEDGER MISMATCH: expected balanced, found ' + text + ' token=' + process.argv[2]);
process.exit(1);
`;

const checkedPlan = (check: string) =>
  `# Execution Plan\n\n## Items\n- [ ] 1. Ledger — write ledger.txt — Check: \`${check}\`\n`;

const rpiFile = (root: string, file: string) => path.join(root, '.workbench', 'rpi', file);
const checkEvents = (events: WorkbenchEvent[]) => events.filter((event): event is EventOf<'check-finished'> => event.type === 'check-finished');
const exists = (file: string) => access(file).then(() => true, () => false);
const secret = 'sk-check-secret-0123456789abcdef';

describe('plan items that prove themselves with a check', () => {
  const tempFolder = useTempFolders('rpi-item-checks-');
  const llm = useFakeLlm();
  const open = useOpenedWorkbenches();

  async function project() {
    const root = await tempFolder();
    await writeTree(root, { 'check-ledger.js': ledgerCheck });
    return root;
  }

  it('hands a failed check back to the item, whose fix passes: the item is done, its check passed, kept on disk through a reopen', async () => {
    const root = await project();
    llm().enqueue(
      say('research: check-ledger.js tests the ledger'),
      say(checkedPlan(`node check-ledger.js ${secret}`)),
      call('write_file', { path: 'ledger.txt', content: 'off by one\n' }),
      say('Wrote the ledger.'),
      call('write_file', { path: 'ledger.txt', content: 'balanced\n' }),
      say('Fixed the ledger.'),
      say('The ledger is balanced; its check passed.'),
    );
    const options = fakeModelOptions(llm(), { llmSettings: async () => ({ baseUrl: llm().baseUrl, apiKey: secret, model: 'fake-model', contextWindow: 32_000, toolMode: 'native' }) });
    const workbench = await open(root, options);
    const events = recordEvents(workbench);

    const result = await (await startRun(workbench, 'Balance the ledger')).finished;

    expect(result.status).toBe('done');
    expect(await readFile(path.join(root, 'ledger.txt'), 'utf8')).toBe('balanced\n');
    expect(await readFile(rpiFile(root, 'plan.md'), 'utf8')).toContain('- [x] 1. Ledger');
    expect(checkEvents(events).map(({ index, round, outcome, exitCode, source }) => ({ index, round, outcome, exitCode, source }))).toEqual([
      { index: 0, round: 0, outcome: 'failed', exitCode: 1, source: 'plan' },
      { index: 0, round: 1, outcome: 'passed', exitCode: 0, source: 'plan' },
    ]);
    // The secret the model wrote into the check is masked in every place the check shows.
    expect(checkEvents(events)[0]!.command).not.toContain(secret);

    const implement = llm().chatRequests().filter((request) => phaseOfRequest(request) === 'implement');
    expect(implement).toHaveLength(4);
    const fixRound = requestText(implement[2]!);
    expect(fixRound).toContain('The check of this item failed (fix round 1 of 2)');
    expect(fixRound).toContain('exited 1');
    expect(fixRound).toContain('LEDGER MISMATCH: expected balanced, found off by one');
    expect(fixRound).toContain('its check `node check-ledger.js [hidden: API key]` exited 1');
    expect(fixRound).toContain('token=[hidden: API key]');
    const summary = requestText(llm().chatRequests().at(-1)!);
    expect(summary).toContain('Checks run after the items');
    expect(summary).toContain('(the plan’s check) passed');

    const log = (await readFile(path.join(root, '.workbench', 'tool-log.jsonl'), 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as { tool: string; result: string });
    const checks = log.filter((entry) => entry.tool === 'run_command');
    expect(checks).toHaveLength(2);
    expect(checks[0]!.result).toContain('LEDGER MISMATCH');
    expect(JSON.stringify(log)).not.toContain(secret);

    await workbench.close();
    const reopened = await open(root, options);
    const snapshot = await reopened.request('workbench:snapshot');
    expect(snapshot.rpi.items[0]).toMatchObject({ status: 'done', check: expect.stringContaining('node check-ledger.js'), checkResult: { outcome: 'passed', exitCode: 0, source: 'plan' } });
    const request = snapshot.conversation.find((message) => message.role === 'user')!;
    expect(snapshot.runs?.[request.id]?.checks).toEqual({ passed: 1, failed: 0, denied: 0, none: 0 });
  });

  it('marks an item whose check never passes failed after two fix rounds, naming the check, with no ordinary retry on top', async () => {
    const root = await project();
    llm().enqueue(
      say('research'),
      say(checkedPlan('node check-ledger.js')),
      call('write_file', { path: 'ledger.txt', content: 'wrong\n' }),
      say('Done.'),
      say('Fixed, I think.'),
      say('Fixed again.'),
      say('The ledger check kept failing.'),
    );
    const workbench = await open(root, fakeModelOptions(llm()));
    const events = recordEvents(workbench);

    const result = await (await startRun(workbench, 'Balance the ledger')).finished;

    expect(result.status).toBe('done');
    expect(await readFile(rpiFile(root, 'plan.md'), 'utf8')).toContain('- [!] 1. Ledger — write ledger.txt — Check: `node check-ledger.js` [Failed: check `node check-ledger.js` exited 1]');
    expect(checkEvents(events).map(({ round, outcome }) => `${round}:${outcome}`)).toEqual(['0:failed', '1:failed', '2:failed']);
    // The first attempt's two requests, then one per fix round: no ordinary retry after the last.
    expect(llm().chatRequests().filter((request) => phaseOfRequest(request) === 'implement')).toHaveLength(4);
    const snapshot = await workbench.request('workbench:snapshot');
    expect(snapshot.rpi.items[0]).toMatchObject({ status: 'failed', checkResult: { outcome: 'failed', exitCode: 1 } });
    const request = snapshot.conversation.find((message) => message.role === 'user')!;
    expect(snapshot.runs?.[request.id]?.checks).toEqual({ passed: 0, failed: 1, denied: 0, none: 0 });
  });

  it('asks before running a check, saying it comes from the plan; a denied check is not run and is reported as denied, not passed', async () => {
    const root = await project();
    const ask: ApprovalSettings = { files: 'auto', commands: 'ask', timeoutSeconds: 600, reviewPlan: false };
    llm().enqueue(
      say('research'),
      say(checkedPlan('node check-ledger.js && node -e "require(\'fs\').writeFileSync(\'ran.txt\', \'x\')"')),
      call('write_file', { path: 'ledger.txt', content: 'balanced\n' }),
      say('Wrote the ledger.'),
      say('Done; the check was not run.'),
    );
    const workbench = await open(root, { ...fakeModelOptions(llm()), approvals: async () => ask });
    const events = recordEvents(workbench);
    const started = await startRun(workbench, 'Balance the ledger');

    const request = await eventsInTurn(workbench, events, 'approval-requested')();
    expect(request).toMatchObject({ tool: 'run_command', args: { command: expect.stringContaining('node check-ledger.js') } });
    expect(request.reason).toBe('The check of plan item 1 (“Ledger”), written by the model in the plan, run because the item says it is done; commands need your approval');
    await workbench.request('session:approve', { requestId: request.requestId, decision: 'deny' });
    expect((await started.finished).status).toBe('done');

    expect(await exists(path.join(root, 'ran.txt'))).toBe(false);
    expect(checkEvents(events).map(({ outcome, exitCode }) => ({ outcome, exitCode }))).toEqual([{ outcome: 'denied', exitCode: null }]);
    const snapshot = await workbench.request('workbench:snapshot');
    expect(snapshot.rpi.items[0]).toMatchObject({ status: 'done', checkResult: { outcome: 'denied' } });
    const message = snapshot.conversation.find((entry) => entry.role === 'user')!;
    expect(snapshot.runs?.[message.id]?.checks).toEqual({ passed: 0, failed: 0, denied: 1, none: 0 });
    expect(requestText(llm().chatRequests().at(-1)!)).toContain('denied: not run');
  });

  it('runs the folder’s check command after every item without a check of its own, and once more over the whole change', async () => {
    const root = await tempFolder();
    await writeTree(root, { 'count.js': "require('fs').appendFileSync('checks.log', 'ran\\n');\n" });
    llm().enqueue(
      say('research'),
      say('# Execution Plan\n\n## Items\n- [ ] 1. One — write one.txt\n- [ ] 2. Two — write two.txt\n'),
      call('write_file', { path: 'one.txt', content: '1\n' }),
      say('Wrote one.txt.'),
      call('write_file', { path: 'two.txt', content: '2\n' }),
      say('Wrote two.txt.'),
      say('Both files written.'),
    );
    const workbench = await open(root, { ...fakeModelOptions(llm()), folderChecks: memoryFolderChecks('node count.js') });
    const events = recordEvents(workbench);

    expect((await (await startRun(workbench, 'Write two files')).finished).status).toBe('done');

    expect(await readFile(path.join(root, 'checks.log'), 'utf8')).toBe('ran\nran\nran\n');
    expect(checkEvents(events).map(({ index, source, outcome }) => ({ index, source, outcome }))).toEqual([
      { index: 0, source: 'folder', outcome: 'passed' },
      { index: 1, source: 'folder', outcome: 'passed' },
      { index: null, source: 'folder', outcome: 'passed' },
    ]);
    // The last check ran after the last item was marked, before the summary.
    const finalCheck = events.findIndex((event) => event.type === 'check-finished' && event.index === null);
    const lastMark = events.findLastIndex((event) => event.type === 'plan-updated');
    expect(finalCheck).toBeGreaterThan(lastMark);
    const snapshot = await workbench.request('workbench:snapshot');
    expect(snapshot.rpi.finalCheck).toEqual({ command: 'node count.js', source: 'folder', outcome: 'passed', exitCode: 0 });
    const lines = (await readFile(rpiFile(root, 'checks.jsonl'), 'utf8')).trim().split('\n');
    expect(lines).toHaveLength(3);
    expect(requestText(llm().chatRequests().at(-1)!)).toContain('Whole change, after the last item: `node count.js` (the folder’s check command) passed');
  });
});
