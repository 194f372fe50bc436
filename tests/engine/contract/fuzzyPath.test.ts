import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fuzzyMatch, placementScore, rankPaths } from '../../../engine/contract/fuzzyPath.js';

/** Every placement of `query` in `path` (ascending positions of equal characters, case ignored). */
function* placements(query: string, path: string, from = 0, chosen: number[] = []): Generator<number[]> {
  if (chosen.length === query.length) {
    yield chosen;
    return;
  }
  const wanted = query[chosen.length]!.toLowerCase();
  for (let at = from; at < path.length; at += 1) {
    if (path[at]!.toLowerCase() === wanted) yield* placements(query, path, at + 1, [...chosen, at]);
  }
}

const pathChars = fc.constantFrom('a', 'b', 'A', 'B', '/', '.', '_', 'c');

describe('fuzzy path matching', () => {
  it('finds the best placement of all (checked against every placement on small paths), and only real matches', () => {
    fc.assert(
      fc.property(fc.string({ unit: pathChars, minLength: 1, maxLength: 14 }), fc.string({ unit: fc.constantFrom('a', 'b', 'c', '.'), minLength: 1, maxLength: 5 }), (path, query) => {
        const all = [...placements(query, path)];
        const match = fuzzyMatch(query, path);
        if (all.length === 0) {
          expect(match).toBeNull();
          return;
        }
        expect(match).not.toBeNull();
        const best = Math.max(...all.map((positions) => placementScore(path, positions)));
        expect(placementScore(path, match!.positions)).toBe(best);
        expect(match!.positions.map((at) => path[at]!.toLowerCase()).join('')).toBe(query.toLowerCase());
        // The earliest of the best placements, ending first.
        const ends = all.filter((positions) => placementScore(path, positions) === best).map((positions) => positions.at(-1)!);
        expect(match!.positions.at(-1)).toBe(Math.min(...ends));
      }),
      { numRuns: 3000 },
    );
  });

  it('ranks a hostile listing without blowing up: long repetitive paths and a long repetitive query', () => {
    const paths = Array.from({ length: 200 }, (_, index) => ({ path: `${'a/'.repeat(250)}${index}` }));
    const ranked = rankPaths('a'.repeat(64), paths, 5);
    expect(ranked).toHaveLength(5);
    expect(ranked[0]!.positions).toHaveLength(32); // a query is matched on its first 32 characters
  });

  it('positions are places in the path even where lower case is longer (İ), and a long query of such characters still matches', () => {
    expect(fuzzyMatch('x', 'İx')?.positions).toEqual([1]);
    const path = 'veri/İzmir/İstanbul-nüfus-2024.csv';
    const match = fuzzyMatch(path.slice(0, 32), path);
    expect(match?.score).toBeGreaterThan(0);
    expect(match?.positions).toEqual(Array.from({ length: 32 }, (_, index) => index));
  });
});
