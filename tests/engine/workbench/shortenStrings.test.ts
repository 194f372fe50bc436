import { describe, expect, it } from 'vitest';
import { shortenStrings } from '../../../engine/workbench/shortenStrings.js';

describe('shortenStrings', () => {
  it('cuts every string past the limit, at any depth, naming its full length', () => {
    const long = 'a'.repeat(401);
    const value = { path: 'big.txt', content: long, edits: [{ old_text: long, n: 3 }], nested: { deep: [long, null, true] } };
    const cut = `${'a'.repeat(400)}… (401 chars)`;

    expect(shortenStrings(value)).toEqual({ path: 'big.txt', content: cut, edits: [{ old_text: cut, n: 3 }], nested: { deep: [cut, null, true] } });
  });

  it('leaves strings of exactly the limit, and the value it was given, unchanged', () => {
    const value = { content: 'b'.repeat(400), more: 'c'.repeat(1000) };
    const copy = structuredClone(value);
    expect(shortenStrings(value)).toMatchObject({ content: 'b'.repeat(400), more: `${'c'.repeat(400)}… (1000 chars)` });
    expect(value).toEqual(copy);
  });

  it('never splits a character made of two UTF-16 units', () => {
    const text = `${'d'.repeat(399)}😀${'e'.repeat(10)}`;
    expect(shortenStrings(text)).toBe(`${'d'.repeat(399)}… (${text.length} chars)`);
  });

  it('takes another limit', () => {
    expect(shortenStrings(['abcdef'], 3)).toEqual(['abc… (6 chars)']);
  });
});
