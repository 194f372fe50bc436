import { describe, expect, it } from 'vitest';
import { requiredLiteral } from '../../../../engine/tools/search/requiredLiteral.js';

describe('requiredLiteral', () => {
  it.each([
    ['retry(Count|Delay)\\s*=\\s*\\d+', 'gm', 'retry'],
    ['function\\s+loadConfig', 'gm', 'loadConfig'],
    ['colou?r', 'gm', 'colo'],
    ['ab*cdef', 'gm', 'cdef'],
    ['ab{0,2}cd', 'gm', 'cd'],
    ['abc{2}de', 'gm', 'abc'],
    ['abc+de', 'gm', 'abc'],
    ['foo\\.bar\\(\\)', 'gm', 'foo.bar()'],
    ['a{b', 'gm', 'a{b'],
    ['(?<=prefix)value', 'gm', 'value'],
    ['[abc]+xyz', 'gm', 'xyz'],
    ['\\x41BC', 'gm', 'BC'],
    ['\\u0041BC', 'gm', 'BC'],
    ['\\u{1F600}smile', 'gmu', 'smile'],
    ['\\p{Lu}pper', 'gmu', 'pper'],
    ['(?<word>\\w+)\\k<word>tail', 'gm', 'tail'],
    ['(a)\\12345x', 'gm', 'x'],
    ['\\cJnext', 'gm', 'next'],
    ['\\bword\\b', 'gm', 'word'],
    ['café', 'gmu', 'café'],
    ['fix(me)?: now', 'gm', ': now'],
    ['TODO: 42', 'gim', ': 42'],
  ])('finds the text every match of /%s/%s contains: %j', (source, flags, expected) => {
    expect(requiredLiteral(source, flags)).toBe(expected);
  });

  it.each([
    ['TODO|FIXME', 'gm'],
    ['\\d+', 'gm'],
    ['a?', 'gm'],
    ['x*', 'gm'],
    ['(foo|bar)', 'gm'],
    ['todo', 'gim'],
    ['.', 'gm'],
    ['^$', 'gm'],
    ['\\uD83D\\uDE00', 'gm'],
  ])('finds none for /%s/%s', (source, flags) => {
    expect(requiredLiteral(source, flags)).toBeNull();
  });

  it('never excludes a text the regex matches', () => {
    const cases: [string, string, string[]][] = [
      ['colou?r', 'gm', ['color', 'colour']],
      ['ab{0,2}cd', 'gm', ['acd', 'abbcd']],
      ['a\\.?b', 'gm', ['ab', 'a.b']],
      ['(?:x|y)z+w', 'gm', ['xzw', 'yzzzw']],
      ['\\x41B', 'gm', ['AB']],
      ['\\cJx', 'gm', ['\nx']],
      ['\\u{41}b', 'gmu', ['Ab']],
      ['ks_1', 'gimu', ['KS_1', '\u212Aſ_1']],
      ['\\0123', 'gm', ['\n3']],
    ];
    for (const [source, flags, texts] of cases) {
      const literal = requiredLiteral(source, flags);
      for (const text of texts) {
        expect(new RegExp(source, flags).test(text)).toBe(true);
        if (literal !== null) expect(text.includes(literal), `/${source}/${flags} on ${JSON.stringify(text)} needs ${JSON.stringify(literal)}`).toBe(true);
      }
    }
  });
});
