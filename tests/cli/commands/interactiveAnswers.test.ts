import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { answerApprovals } from '../../../cli/commands/answerApprovals.js';
import { scriptedPrompter, type ScriptedAnswer } from '../../support/cliPrompter.js';
import { useFakeLlm } from '../../support/fakeLlm/useFakeLlm.js';
import { useOpenedWorkbenches } from '../../support/openedWorkbenches.js';
import { call, fakeModelOptions, planText, recordEvents, say } from '../../support/rpiScript.js';
import { useTempFolders } from '../../support/tempFolder.js';
import { startRun } from '../../support/startRun.js';
import type { ApprovalSettings } from '../../../engine/contract/index.js';
import type { Workbench } from '../../../engine/index.js';

const asking: ApprovalSettings = { files: 'ask', commands: 'ask', timeoutSeconds: 600, reviewPlan: false };

describe('answering approvals and the plan review at the terminal', () => {
  const tempFolder = useTempFolders('rpi-cli-answers-');
  const llm = useFakeLlm();
  const open = useOpenedWorkbenches();

  async function workbenchAsking(approvals: ApprovalSettings = asking) {
    const root = await tempFolder();
    const workbench = await open(root, fakeModelOptions(llm(), { approvals: async () => approvals }));
    return { root, workbench };
  }

  function answering(workbench: Workbench, answers: ScriptedAnswer[], edits: ((text: string) => string)[] = []) {
    const person = scriptedPrompter(answers, edits);
    const notes: string[] = [];
    answerApprovals({ workbench, answerer: { kind: 'ask', prompter: person.prompter }, note: (text) => void notes.push(text), resumeCommand: 'rpi-workbench resume x' });
    return { ...person, notes };
  }

  const oneWrite = () =>
    llm().enqueue(
      say('Empty.'),
      say(planText('Notes')),
      call('write_file', { path: 'notes.txt', content: 'original\n' }),
      say('Done with the notes.'),
      say('Summary.'),
    );

  it('asks again after a bad answer, shows the diff and the details, explains a refused edit, previews the edit it accepts and runs it', async () => {
    const { root, workbench } = await workbenchAsking();
    oneWrite();
    const person = answering(
      workbench,
      ['maybe', 'v', 'e', 'e', 'e', 'e', 'a'],
      [() => 'not json', () => '[1, 2]', () => '{"path": "notes.txt"}', () => '{"path": "notes.txt", "content": "edited\\n"}'],
    );

    const result = await (await startRun(workbench, 'Write notes')).finished;

    expect(result.status).toBe('done');
    expect(await readFile(path.join(root, 'notes.txt'), 'utf8')).toBe('edited\n');
    const output = person.output();
    expect(output).toContain('? Approve write_file notes.txt? File changes need your approval (expires in');
    expect(output).toContain('Please answer a, d, e, v or r (approve, deny, edit, view, rest of this request).');
    expect(output).toContain('  notes.txt: new file, 1 line\ndiff --git a/notes.txt b/notes.txt\nnew file mode 100644\n--- /dev/null\n+++ b/notes.txt\n@@ -0,0 +1 @@\n+original');
    expect(output).toContain('@@ -0,0 +1 @@\n+edited\n  With your edits, approving does what is shown above.');
    expect(output).toContain(`  real path: ${path.join(root, 'notes.txt')}`);
    expect(output).toContain('The edited arguments are not valid JSON');
    expect(output).toContain('The edited arguments must be a JSON object');
    expect(output).toContain('The edited arguments do not fit write_file: content:');
    expect(output).toContain('Approved with your edits.');
    // The first edit starts from the request's arguments, each next one from the last text the person saved.
    expect(JSON.parse(person.edited[0]!)).toEqual({ path: 'notes.txt', content: 'original\n' });
    expect(person.edited.slice(1)).toEqual(['not json', '[1, 2]', '{"path": "notes.txt"}']);
    expect(person.asked).toHaveLength(7);
    expect(person.asked[0]).toBe('  [a]pprove  [r]: approve file changes for the rest of this request  [d]eny  [e]dit arguments  [v]iew details > ');
  });

  it('[r] approves the file changes of the rest of the request without asking again', async () => {
    const { root, workbench } = await workbenchAsking();
    llm().enqueue(
      say('Empty.'),
      say(planText('Notes')),
      call('write_file', { path: 'one.txt', content: '1\n' }),
      call('write_file', { path: 'two.txt', content: '2\n' }),
      say('Both written.'),
      say('Summary.'),
    );
    const person = answering(workbench, ['r']);
    expect((await (await startRun(workbench, 'Write two notes')).finished).status).toBe('done');
    expect(person.asked).toHaveLength(1);
    expect(await readFile(path.join(root, 'two.txt'), 'utf8')).toBe('2\n');
  });

  it('deny, and input that ends, both deny', async () => {
    for (const answers of [['d'], []]) {
      const { root, workbench } = await workbenchAsking();
      oneWrite();
      const events = recordEvents(workbench);
      answering(workbench, answers);
      expect((await (await startRun(workbench, 'Write notes')).finished).status).toBe('done');
      expect(existsSync(path.join(root, 'notes.txt'))).toBe(false);
      expect(events.find((event) => event.type === 'approval-resolved')).toMatchObject({ decision: 'denied' });
      await workbench.close();
    }
  });

  it('withdraws the question when the run is cancelled while it waits', async () => {
    const { root, workbench } = await workbenchAsking();
    oneWrite();
    const events = recordEvents(workbench);
    const person = answering(workbench, [{ wait: true }]);
    const started = await startRun(workbench, 'Write notes');
    await new Promise<void>((resolve) => {
      const stop = workbench.subscribe((event) => {
        if (event.type !== 'approval-requested') return;
        stop();
        resolve();
      });
    });

    await workbench.request('session:cancel');

    expect(await started.finished).toMatchObject({ status: 'cancelled', phase: 'implement' });
    expect(existsSync(path.join(root, 'notes.txt'))).toBe(false);
    expect(events.filter((event) => event.type === 'approval-resolved')).toMatchObject([{ decision: 'denied' }]);
    expect(person.asked).toHaveLength(1);
    expect(person.notes).toEqual([]);
  });

  describe('the model’s questions (ask_user)', () => {
    const asksFormat = () =>
      llm().enqueue(
        call('ask_user', { question: 'Which format?', choices: ['CSV', 'XLSX'], default: 'CSV' }),
        say('Findings.'),
        say(planText('Notes')),
        say('Notes done.'),
        say('Summary.'),
      );
    const researchOf = (workbench: Workbench) => workbench.request('rpi:read', { file: 'research' }).then(({ text }) => text ?? '');

    it('asks on the terminal: a number out of range is explained, a choice by number, own words, Enter for the default, "-" for no answer', async () => {
      for (const [typed, answer] of [[['7', '2'], 'The user answered: XLSX'], [['Both'], 'The user answered: Both'], [[''], 'The user answered: CSV'], [['-'], 'No answer: proceed']] as const) {
        const { workbench } = await workbenchAsking();
        asksFormat();
        const person = answering(workbench, [...typed]);
        expect((await (await startRun(workbench, 'Write notes')).finished).status).toBe('done');
        expect(person.output()).toMatch(/\? The model asks while researching \(expires in (10m 00s|9m \d\ds)\):\n {2}Which format\?\n {2}1\) CSV {2}\(default\)\n {2}2\) XLSX/);
        expect(person.asked[0]).toBe('  Type a number or your own answer; Enter for "CSV"; "-" for no answer > ');
        if (typed[0] === '7') expect(person.output()).toContain('Choose 1 to 2, or type your own answer.');
        expect(await researchOf(workbench)).toContain(`Answer: ${answer}`);
        await workbench.close();
      }
    });

    it('gives no answer when input ends, and when nobody can answer (--yes, not a terminal), each with a note', async () => {
      for (const kind of ['ask', 'yes', 'deny'] as const) {
        const { workbench } = await workbenchAsking();
        asksFormat();
        const notes: string[] = [];
        const person = scriptedPrompter([]);
        const answerer = kind === 'ask' ? { kind, prompter: person.prompter } : { kind };
        answerApprovals({ workbench, answerer, note: (text) => void notes.push(text), resumeCommand: 'rpi-workbench resume x' });
        expect((await (await startRun(workbench, 'Write notes')).finished).status).toBe('done');
        expect(await researchOf(workbench)).toContain('Answer: No answer: proceed with your best assumption and state it. You suggested "CSV" as the default.');
        if (kind === 'ask') expect(person.output()).toContain('No answer (end of input): the model goes on with its best assumption.');
        else expect(notes).toEqual([`rpi-workbench: the model asked "Which format?", and ${kind === 'yes' ? 'with --yes nobody is asked' : 'nobody can answer here (not a terminal)'}: no answer, so it goes on with its best assumption and states it.`]);
        await workbench.close();
      }
    });
  });

  it('plan review: an edit without items is explained, an edit with items is approved and runs', async () => {
    const { root, workbench } = await workbenchAsking({ ...asking, files: 'auto', reviewPlan: true });
    llm().enqueue(
      say('Empty.'),
      say(planText('Risky delete', 'Notes')),
      call('write_file', { path: 'notes.txt', content: 'n\n' }),
      say('Notes written.'),
      say('Summary.'),
    );
    const person = answering(workbench, ['v', 'e', 'e'], [() => 'Nothing to do.\n', () => '# Execution Plan\n\n## Items\n- [ ] 1. Notes — write notes.txt\n']);

    const result = await (await startRun(workbench, 'Write notes')).finished;

    expect(result.status).toBe('done');
    expect(person.output()).toContain('── The plan is ready for review ──');
    expect(person.output()).toContain('- [ ] 1. Risky delete — do risky delete');
    expect(person.output()).toContain('The edited plan has no items');
    expect(person.output()).toContain('Approved your edited plan.');
    const plan = await readFile(path.join(root, '.workbench', 'rpi', 'plan.md'), 'utf8');
    expect(plan).toContain('- [x] 1. Notes');
    expect(plan).not.toContain('Risky delete');
  });

  it('plan review: reject stops the run before Implement, resumable', async () => {
    const { workbench } = await workbenchAsking({ ...asking, reviewPlan: true });
    llm().enqueue(say('Empty.'), say(planText('Notes')));
    answering(workbench, ['r']);

    const result = await (await startRun(workbench, 'Write notes')).finished;

    expect(result).toMatchObject({ status: 'cancelled', phase: 'plan', error: 'The plan was rejected. Resume to review it again, or send a new message.' });
    expect((await workbench.request('workbench:snapshot')).rpi.items.map((item) => item.status)).toEqual(['pending']);
  });
});
