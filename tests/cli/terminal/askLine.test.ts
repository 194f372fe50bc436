import { PassThrough } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { askLine } from '../../../cli/terminal/askLine.js';

/** A question on streams: `type` writes keys, `answer` is what askLine resolves with. */
function asked(typedAhead = '') {
  const input = new PassThrough();
  const output = new PassThrough();
  output.resume();
  if (typedAhead) input.write(typedAhead);
  const answer = askLine('Approve? > ', { input, output, signal: new AbortController().signal, onInterrupt: () => undefined });
  return { answer, type: (keys: string) => input.write(keys) };
}

describe('a question on the terminal: only Enter typed at it answers', () => {
  it('a line feed typed before the question answers nothing: the keys wait in its line, and Enter there answers with them', async () => {
    const { answer, type } = asked('a\n');
    let settled = false;
    void answer.then(() => (settled = true));
    await nextTurn();
    await nextTurn();
    await nextTurn();
    expect(settled).toBe(false);
    type('\r');
    expect(await answer).toBe('a');
  });

  it('once the question is up, a line feed answers as Enter does (a script sending "d\\n")', async () => {
    const { answer, type } = asked();
    await nextTurn();
    await nextTurn();
    type('d\n');
    expect(await answer).toBe('d');
  });
});
