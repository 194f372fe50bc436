import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Workbench } from '../../../engine/index.js';
import { openToolLog } from '../../../engine/store/toolLog.js';
import { useFakeLlm } from '../../support/fakeLlm/useFakeLlm.js';
import { useOpenedWorkbenches } from '../../support/openedWorkbenches.js';
import { autoApprovals, call, fakeModelOptions, firstUserText, phaseOfRequest, planText, recordEvents, requestText, say, toolNames } from '../../support/rpiScript.js';
import { followRun, startRun } from '../../support/startRun.js';
import { useTempFolders, writeTree } from '../../support/tempFolder.js';
import { eventsInTurn } from '../../support/eventsInTurn.js';

const secret = 'sk-question-0123456789abcdef';
const formatQuestion = { question: 'Which format should the report use?', choices: ['CSV', 'XLSX'], default: 'CSV' };

const researchOf = (workbench: Workbench) => workbench.request('rpi:read', { file: 'research' }).then(({ text }) => text ?? '');

describe('questions to the user before planning (ask_user)', () => {
  const tempFolder = useTempFolders('rpi-questions-');
  const llm = useFakeLlm();
  const open = useOpenedWorkbenches();

  async function start(options: Parameters<typeof fakeModelOptions>[1] = {}) {
    const root = await tempFolder();
    await writeTree(root, { 'bank.csv': 'date,amount\n2026-01-02,12.50\n' });
    const workbench = await open(root, fakeModelOptions(llm(), { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', OPENAI_API_KEY: secret }, ...options }));
    const events = recordEvents(workbench);
    return { root, workbench, events, next: eventsInTurn(workbench, events, 'question-asked') };
  }

  it('asks in Research, waits like an approval, and hands the answer to the model, research.md, Plan and every Implement item', async () => {
    llm().enqueue(
      call('ask_user', { ...formatQuestion, question: `Which format should the report use? (key ${secret})` }),
      say('Findings: the report is written as the user chose.'),
      say(planText('Report', 'Check')),
      call('ask_user', { question: 'May I ask in Implement?' }),
      say('Report written.'),
      say('Checked.'),
      say('Summary.'),
    );
    const { root, workbench, events, next } = await start();
    const started = await startRun(workbench, 'Make a report of bank.csv');

    const question = await next();
    expect(question).toMatchObject({ phase: 'research', question: 'Which format should the report use? (key [hidden: OPENAI_API_KEY])', choices: ['CSV', 'XLSX'], default: 'CSV' });
    expect(question.expiresAt).toBeGreaterThan(Date.now() + 500_000);
    expect((await workbench.request('workbench:snapshot')).pendingQuestions).toEqual([expect.objectContaining({ requestId: question.requestId, question: question.question })]);
    await expect(workbench.request('session:answer-question', { requestId: 'question-nope', answer: 'XLSX' })).rejects.toThrow('There is no question "question-nope".');

    expect(await workbench.request('session:answer-question', { requestId: question.requestId, answer: `XLSX, and my key is ${secret}` })).toEqual({ outcome: 'answered' });
    await expect(workbench.request('session:answer-question', { requestId: question.requestId, answer: 'CSV' })).rejects.toThrow('already settled (answered)');
    expect((await started.finished).status).toBe('done');

    expect(events.filter((event) => event.type === 'question-asked')).toHaveLength(1);
    expect(events.find((event) => event.type === 'question-answered')).toMatchObject({ requestId: question.requestId, outcome: 'answered' });
    expect((await workbench.request('workbench:snapshot')).pendingQuestions).toEqual([]);

    const research = await researchOf(workbench);
    expect(research).toMatch(/^Findings: the report is written as the user chose\.\n\n## Answers from the user\n/);
    expect(research).toContain('1. Question (research): Which format should the report use? (key [hidden: OPENAI_API_KEY]) (choices: CSV / XLSX; default: CSV)');
    expect(research).toContain('   Answer: The user answered: XLSX, and my key is [hidden: OPENAI_API_KEY]');
    expect(research).not.toContain(secret);

    const requests = llm().chatRequests();
    expect(requestText(requests[1]!)).toContain('The user answered: XLSX, and my key is [hidden: OPENAI_API_KEY]');
    const plan = requests.find((request) => phaseOfRequest(request) === 'plan')!;
    expect(firstUserText(plan)).toContain('## Answers from the user');
    const items = requests.filter((request) => phaseOfRequest(request) === 'implement');
    expect(items.length).toBeGreaterThanOrEqual(2);
    for (const item of items) expect(firstUserText(item)).toContain('## Answers from the user\n1. Question (research): Which format should the report use?');
    // What the engine hands the model (contexts and tool results) never holds the secret; only the model's own call echoes what it sent.
    const handed = requests.flatMap((request) => request.messages.filter((message) => message.role !== 'assistant'));
    expect(JSON.stringify(handed)).not.toContain(secret);

    // Offered in Research and Plan, never in Implement: a call there is refused, and nobody is asked.
    expect(toolNames(requests[0])).toContain('ask_user');
    expect(toolNames(plan)).toContain('ask_user');
    for (const item of items) expect(toolNames(item)).not.toContain('ask_user');
    expect(requestText(items[1]!)).toContain('Refused: ask_user is not available in the implement phase');

    const log = await openToolLog(path.join(root, '.workbench'));
    const asked = await log.callsOf('ask_user', started.messageId);
    expect(asked.map((record) => [record.phase, record.ok, record.result])).toEqual([
      ['research', true, 'The user answered: XLSX, and my key is [hidden: OPENAI_API_KEY]'],
      ['implement', false, expect.stringContaining('Refused: ask_user is not available in the implement phase')],
    ]);
    expect(await readFile(path.join(root, '.workbench', 'tool-log.jsonl'), 'utf8')).not.toContain(secret);
  });

  it('adds the answers of Plan to research.md, so every Implement item reads them', async () => {
    llm().enqueue(
      say('Findings.'),
      call('ask_user', { question: 'One sheet or one per month?', choices: ['one', 'per month'] }),
      say(planText('Report')),
      say('Report written.'),
      say('Summary.'),
    );
    const { workbench, next } = await start();
    const started = await startRun(workbench, 'Make a report');
    const question = await next();
    expect(question.phase).toBe('plan');
    await workbench.request('session:answer-question', { requestId: question.requestId, answer: 'per month' });
    expect((await started.finished).status).toBe('done');

    const research = await researchOf(workbench);
    expect(research).toBe(
      'Findings.\n\n## Answers from the user\n<!-- written by the workbench from the questions asked with ask_user -->\n\n' +
        '1. Question (plan): One sheet or one per month? (choices: one / per month)\n   Answer: The user answered: per month\n',
    );
    const item = llm().chatRequests().find((request) => phaseOfRequest(request) === 'implement')!;
    expect(firstUserText(item)).toContain('Answer: The user answered: per month');
  });

  it('with no answer, or none before the question expires, the model goes on with its best assumption; the wait does not count toward the phase’s time limit', async () => {
    llm().enqueue(
      call('ask_user', { question: 'Which bank?' }),
      call('ask_user', { question: 'Which currency?', default: 'EUR' }),
      say('Findings with assumptions.'),
      say(planText('Report')),
      say('Report written.'),
      say('Summary.'),
    );
    // Research may take 1.5 seconds; the second question waits 2 seconds before it expires.
    const { workbench, next } = await start({ approvals: async () => ({ ...autoApprovals, timeoutSeconds: 2 }), limits: { timeoutMs: { research: 1_500, plan: 60_000, implement: 60_000, summary: 60_000 } } });
    const started = await startRun(workbench, 'Make a report');
    expect(await workbench.request('session:answer-question', { requestId: (await next()).requestId })).toEqual({ outcome: 'no-answer' });
    await next();
    expect((await started.finished).status).toBe('done');

    const [, second, third] = llm().chatRequests();
    expect(requestText(second!)).toContain('No answer: proceed with your best assumption and state it.');
    expect(requestText(third!)).toContain('No answer (nobody answered before the question expired): proceed with your best assumption and state it. You suggested \\"EUR\\" as the default.');
    const research = await researchOf(workbench);
    expect(research).toContain('1. Question (research): Which bank?\n   Answer: No answer: proceed with your best assumption and state it.');
    expect(research).toContain('2. Question (research): Which currency? (default: EUR)');
  });

  it('a resumed Research is told the earlier answers and does not ask the same question again', async () => {
    llm().enqueue(call('ask_user', formatQuestion), { fault: { type: 'http-401' } });
    const { workbench, events, next } = await start();
    const started = await startRun(workbench, 'Make a report');
    await workbench.request('session:answer-question', { requestId: (await next()).requestId, answer: 'XLSX' });
    expect(await started.finished).toMatchObject({ status: 'failed', phase: 'research' });

    llm().enqueue(call('ask_user', { question: '  which format should the REPORT use? ' }), say('Findings: XLSX.'), say(planText('Report')), say('Report written.'), say('Summary.'));
    const resumed = await followRun(workbench, workbench.request('session:resume'));
    expect(resumed.messageId).toBe(started.messageId);
    expect((await resumed.finished).status).toBe('done');

    expect(events.filter((event) => event.type === 'question-asked')).toHaveLength(1);
    const requests = llm().chatRequests();
    const resumedResearch = requests.filter((request) => phaseOfRequest(request) === 'research').slice(-2);
    expect(firstUserText(resumedResearch[0]!)).toContain('## Answers from the user so far (do not ask these again)\n1. Question (research): Which format should the report use?');
    expect(requestText(resumedResearch[1]!)).toContain('The user answered: XLSX');
    const research = await researchOf(workbench);
    expect(research.match(/Question \(research\)/g)).toHaveLength(1);
  });

  it('refuses an empty answer and a question past its length limit, each with a reason', async () => {
    llm().enqueue(call('ask_user', { question: 'x'.repeat(2_001) }), call('ask_user', formatQuestion));
    const { workbench, next } = await start();
    const started = await startRun(workbench, 'Make a report');
    const question = await next();
    expect(question.question).toBe(formatQuestion.question);
    expect(requestText(llm().chatRequests()[1]!)).toContain('Invalid arguments for ask_user: question:');
    await expect(workbench.request('session:answer-question', { requestId: question.requestId, answer: '   ' })).rejects.toThrow('The answer is empty: write one, or give no answer');
    llm().enqueue(say('Findings.'), say(planText('Report')), say('Report written.'), say('Summary.'));
    await workbench.request('session:answer-question', { requestId: question.requestId, answer: 'CSV' });
    expect((await started.finished).status).toBe('done');
  });
});
