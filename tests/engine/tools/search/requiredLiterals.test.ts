import { describe, expect, it } from 'vitest';
import { requiredLiterals } from '../../../../engine/tools/search/requiredLiterals.js';
import { seededRandom } from '../../../support/seededRandom.js';

describe('requiredLiterals', () => {
  it.each([
    ['function\\s+loadConfig', 'gm', ['loadConfig']],
    ['colou?r', 'gm', ['colo']],
    ['ab*cdef', 'gm', ['cdef']],
    ['ab{0,2}cd', 'gm', ['cd']],
    ['abc{2}de', 'gm', ['abc']],
    ['abc+de', 'gm', ['abc']],
    ['foo\\.bar\\(\\)', 'gm', ['foo.bar()']],
    ['a{b', 'gm', ['a{b']],
    ['(?<=prefix)value', 'gm', ['value']],
    ['[abc]+xyz', 'gm', ['xyz']],
    ['\\x41BC', 'gm', ['BC']],
    ['\\u0041BC', 'gm', ['BC']],
    ['\\u{1F600}smile', 'gmu', ['smile']],
    ['\\p{Lu}pper', 'gmu', ['pper']],
    ['(?<word>\\w+)\\k<word>tail', 'gm', ['tail']],
    ['(a)\\12345x', 'gm', ['x']],
    ['\\cJnext', 'gm', ['next']],
    ['\\bword\\b', 'gm', ['word']],
    ['café', 'gmu', ['café']],
    ['fix(me)?: now', 'gm', ['fix']],
    ['TODO: 42', 'gim', [': 42']],
  ])('finds the text every match of /%s/%s contains: %j', (source, flags, expected) => {
    expect(requiredLiterals(source, flags)).toEqual(expected);
  });

  it.each([
    ['retry(Count|Delay)\\s*=\\s*\\d+', 'gm', ['retryCount', 'retryDelay']],
    ['TODO|FIXME', 'gm', ['TODO', 'FIXME']],
    ['(foo|bar)', 'gm', ['foo', 'bar']],
    ['useState|useEffect\\(', 'gm', ['useState', 'useEffect(']],
    ['log(Error|Warn)\\(', 'gm', ['logError(', 'logWarn(']],
    ['^(?:import|export) ', 'gm', ['import ', 'export ']],
    ['(ERROR|WARN):\\s+(\\d+)', 'gm', ['ERROR:', 'WARN:']],
    ['(TODO|FIXME)\\(\\w+\\): 1', 'gim', ['): 1']],
  ])('with alternatives, finds texts every match of /%s/%s contains one of: %j', (source, flags, expected) => {
    expect(requiredLiterals(source, flags)).toEqual(expected);
  });

  it('takes one text over several when it is as rare, and the rarer texts over a more common one', () => {
    expect(requiredLiterals('(get|set)Value', 'gm')).toEqual(['Value']);
    expect(requiredLiterals('(?:x|y)z+w', 'gm')).toEqual(['z']);
    expect(requiredLiterals('a(Bq|Cq)', 'gm')).toEqual(['aBq', 'aCq']);
  });

  it.each([
    ['\\d+', 'gm'],
    ['a?', 'gm'],
    ['x*', 'gm'],
    ['todo', 'gim'],
    ['TODO|FIXME', 'gim'],
    ['foo|\\d+', 'gm'],
    ['foo|', 'gm'],
    ['(a|b|c|d|e|f|g|h|i)', 'gm'],
    ['.', 'gm'],
    ['^$', 'gm'],
    ['\\uD83D\\uDE00', 'gm'],
    ['(?i:abc)', 'gm'],
  ])('finds none for /%s/%s', (source, flags) => {
    expect(requiredLiterals(source, flags)).toBeNull();
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
      ['a(b|)c', 'gm', ['ac', 'abc']],
      ['(a|bc){2}d', 'gm', ['abcd', 'aad', 'bcbcd']],
    ];
    for (const [source, flags, texts] of cases) {
      const literals = requiredLiterals(source, flags);
      for (const text of texts) {
        expect(new RegExp(source, flags).test(text)).toBe(true);
        if (literals !== null) expect(literals.some((literal) => text.includes(literal)), `/${source}/${flags} on ${JSON.stringify(text)} needs one of ${JSON.stringify(literals)}`).toBe(true);
      }
    }
  });

  it('never excludes a match, over thousands of generated patterns and texts', () => {
    const random = seededRandom(7);
    const pick = <T,>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
    const atom = (depth: number): string => {
      const roll = random();
      if (roll < 0.45) return pick(['a', 'b', 'c', 'A', ':', '1', 'ab', 'ba']);
      if (roll < 0.6 && depth < 3) return `(${pick(['', '?:', '?<n' + depth + '>'])}${branches(depth + 1)})`;
      if (roll < 0.68 && depth < 3) return `(${pick(['?=', '?!', '?<=', '?<!'])}${branches(depth + 1)})`;
      return pick(['[ab]', '\\d', '.', '\\b', '^', '$', '\\w', '\\:', '[^a]']);
    };
    const quantified = (depth: number) => atom(depth) + (random() < 0.3 ? pick(['?', '*', '+', '{2}', '{0,1}', '{1,}', '{1,2}', '+?']) : '');
    const sequence = (depth: number) => Array.from({ length: 1 + Math.floor(random() * 4) }, () => quantified(depth)).join('');
    const branches = (depth: number): string => Array.from({ length: random() < 0.3 ? 2 + Math.floor(random() * 2) : 1 }, () => sequence(depth)).join('|');
    const text = () => Array.from({ length: Math.floor(random() * 24) }, () => pick(['a', 'b', 'c', 'A', 'B', ':', '1', ' ', '\n'])).join('');

    let checked = 0;
    for (let pattern = 0; pattern < 3_000; pattern += 1) {
      const source = branches(0);
      const flags = random() < 0.2 ? 'gim' : 'gm';
      let regex: RegExp;
      try {
        regex = new RegExp(source, flags);
      } catch {
        continue;
      }
      const literals = requiredLiterals(source, flags);
      if (literals === null) continue;
      expect(literals.length).toBeGreaterThan(0);
      for (let sample = 0; sample < 30; sample += 1) {
        for (const match of text().matchAll(regex)) {
          checked += 1;
          expect(literals.some((literal) => match[0].includes(literal)), `/${source}/${flags} matched ${JSON.stringify(match[0])}, which holds none of ${JSON.stringify(literals)}`).toBe(true);
        }
      }
    }
    expect(checked).toBeGreaterThan(1_000);
  });
});
