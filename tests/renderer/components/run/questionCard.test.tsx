// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { QuestionRequestView, Result } from '../../../../engine/contract/index.js';
import { ChatRunCards } from '../../../../renderer/src/components/run/ChatRunCards.js';
import { RunStatus } from '../../../../renderer/src/components/run/RunStatus.js';
import { idleSnapshot, runId } from '../../../support/runViewFixture.js';
import { runViewHarness } from '../../../support/runViewHarness.js';

afterEach(cleanup);

const asked: QuestionRequestView = {
  requestId: 'question-1',
  phase: 'research',
  question: 'Which format?\n<img src=x onerror="alert(1)"> <b>bold</b>',
  choices: ['CSV', 'XLSX'],
  default: 'CSV',
  expiresAt: Date.now() + 600_000,
};

async function showQuestion(question: Partial<QuestionRequestView> = {}, answer: (payload: unknown) => Result<unknown> = () => ({ ok: true, value: { outcome: 'answered' } })) {
  const harness = runViewHarness({ answers: { 'session:answer-question': answer } });
  await harness.render(
    <>
      <RunStatus />
      <ChatRunCards />
    </>,
  );
  harness.emit({ type: 'run-started', runId, messageId: 'u1', startedAt: 1_000 }, { type: 'phase-started', runId, phase: 'research' }, { type: 'question-asked', runId, ...asked, ...question });
  return harness;
}

const card = () => screen.getByTestId('question-card');
const button = (name: string) => within(card()).getByRole('button', { name });
const input = () => within(card()).getByLabelText('Your answer') as HTMLInputElement;

describe('the question card', () => {
  it('shows the model’s question as plain text, never as markup, with its choices as buttons', async () => {
    await showQuestion();
    expect(within(card()).getByRole('heading').textContent).toBe('A question before planning');
    expect(screen.getByTestId('question-text').textContent).toBe(asked.question);
    expect(card().querySelector('img, b')).toBeNull();
    expect(within(card()).getByRole('group', { name: 'Choices' }).textContent).toBe('CSVXLSX');
    expect(input().placeholder).toBe('Your answer (Enter for “CSV”)');
    expect(input().maxLength).toBe(4000);
    expect(screen.getByText('The model waits for your answer to its question in the chat.')).toBeTruthy();
  });

  it('answers with a choice', async () => {
    const harness = await showQuestion();
    await act(async () => fireEvent.click(button('XLSX')));
    expect(harness.sent('session:answer-question')).toEqual([{ requestId: 'question-1', answer: 'XLSX' }]);
  });

  it('answers with the user’s own text on Enter, the default when left empty, or with no answer', async () => {
    const harness = await showQuestion();
    fireEvent.change(input(), { target: { value: 'Both, one file each' } });
    await act(async () => fireEvent.submit(input().form!));
    await act(async () => fireEvent.change(input(), { target: { value: '   ' } }));
    await act(async () => fireEvent.submit(input().form!));
    await act(async () => fireEvent.click(button('No answer')));
    expect(harness.sent('session:answer-question')).toEqual([
      { requestId: 'question-1', answer: 'Both, one file each' },
      { requestId: 'question-1', answer: 'CSV' },
      { requestId: 'question-1' },
    ]);
  });

  it('sends nothing on an empty Enter when the model suggested no default', async () => {
    const harness = await showQuestion({ choices: undefined, default: undefined });
    expect((button('Answer') as HTMLButtonElement).disabled).toBe(true);
    await act(async () => fireEvent.submit(input().form!));
    expect(harness.sent('session:answer-question')).toEqual([]);
  });

  it('shows how the question was settled, and the engine refusing an answer', async () => {
    const harness = await showQuestion({}, () => ({ ok: false, error: 'This question was already settled (nobody answered in time); it cannot be answered again.' }));
    await act(async () => fireEvent.click(button('CSV')));
    expect(within(card()).getByRole('alert').textContent).toMatch(/already settled/);
    harness.emit({ type: 'question-answered', runId, requestId: 'question-1', outcome: 'answered', answer: 'XLSX' });
    expect(card().dataset.status).toBe('answered');
    expect(within(card()).getByRole('status').textContent).toBe('You answered: XLSX');
    expect(within(card()).queryByRole('button', { name: 'CSV' })).toBeNull();
    expect(screen.queryByText('The model waits for your answer to its question in the chat.')).toBeNull();
  });

  it('shows a question still waiting after a reload, from the snapshot', async () => {
    const harness = runViewHarness({ snapshot: { ...idleSnapshot, running: true, pendingQuestions: [{ ...asked, phase: 'plan' }] } });
    await harness.render(<ChatRunCards />);
    expect(within(card()).getByRole('heading').textContent).toBe('A question while planning');
    expect(button('XLSX')).toBeTruthy();
  });
});
