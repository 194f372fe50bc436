import { describe, expect, it } from 'vitest';
import { createTextRelay } from '../../../engine/llm/textRelay.js';

function relayInto(deltas: string[]) {
  return createTextRelay((text) => deltas.push(text));
}

describe('createTextRelay', () => {
  it('delivers every piece of a single attempt as it comes', () => {
    const deltas: string[] = [];
    const attempt = relayInto(deltas).startAttempt();
    for (const piece of ['Hel', 'lo, ', 'world']) attempt(piece);

    expect(deltas).toEqual(['Hel', 'lo, ', 'world']);
  });

  it('a retry that repeats the delivered text delivers only what is new', () => {
    const deltas: string[] = [];
    const relay = relayInto(deltas);
    const first = relay.startAttempt();
    first('Hello, ');
    first('wo');
    const second = relay.startAttempt();
    for (const piece of ['Hel', 'lo, w', 'orld', '!']) second(piece);

    expect(deltas.join('')).toBe('Hello, world!');
    expect(deltas).toEqual(['Hello, ', 'wo', 'rld', '!']);
  });

  it('a retry that is shorter than what was delivered delivers nothing', () => {
    const deltas: string[] = [];
    const relay = relayInto(deltas);
    relay.startAttempt()('Hello, world');
    relay.startAttempt()('Hello');

    expect(deltas).toEqual(['Hello, world']);
  });

  it('a retry whose text differs ends delivery for the rest of the turn', () => {
    const deltas: string[] = [];
    const relay = relayInto(deltas);
    relay.startAttempt()('Hello, wo');
    const second = relay.startAttempt();
    second('Goodbye');
    second(', world');
    relay.startAttempt()('Hello, world');

    expect(deltas).toEqual(['Hello, wo']);
  });

  it('works without a listener', () => {
    expect(() => createTextRelay(undefined).startAttempt()('text')).not.toThrow();
  });
});
