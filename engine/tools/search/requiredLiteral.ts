/** Characters that might match another character under the i flag: all but ASCII digits, punctuation and space. */
const caseSensitive = /[^\x20-\x40\x5b-\x60\x7b-\x7e]+/;

/**
 * The longest piece of plain text that every match of the regex must contain, or null when none is
 * certain. Workers look for it with a native byte search and skip the (far slower) decoding and regex
 * run on files without it, as ripgrep does with the literals it extracts.
 *
 * Only the top level of the pattern is read and anything unusual ends a run of text: a group, a class,
 * an escape other than escaped punctuation, a quantifier that allows zero. A top-level `|` means no
 * literal at all. Under the i flag only text without letters qualifies, as letters could match in
 * either case.
 */
export function requiredLiteral(source: string, flags: string): string | null {
  const runs = literalRuns(source);
  if (!runs) return null;
  const usable = flags.includes('i') ? runs.flatMap((run) => run.split(caseSensitive)) : runs;
  const longest = usable.reduce((best, run) => (run.length > best.length ? run : best), '');
  return longest || null;
}

/** Runs of literal characters at the top level of `source`, or null when it has a top-level `|`. */
function literalRuns(source: string): string[] | null {
  const runs: string[] = [];
  let run = '';
  const endRun = () => {
    if (run) runs.push(run);
    run = '';
  };
  for (let at = 0; at < source.length; ) {
    const char = source[at]!;
    const quantifier = quantifierAt(source, at);
    if (quantifier) {
      if (quantifier.optional) run = run.slice(0, -1);
      endRun();
      at += quantifier.length;
    } else if (char === '|') {
      return null;
    } else if (char === '(' || char === '[') {
      endRun();
      at = skipBracketed(source, at);
    } else if (char === '\\') {
      const next = source[at + 1] ?? '';
      if (/[^\p{L}\p{N}]/u.test(next) && isPlain(next)) {
        run += next;
        at += 2;
      } else {
        endRun();
        at = skipEscape(source, at);
      }
    } else if (char === '.' || char === '^' || char === '$' || !isPlain(char)) {
      endRun();
      at += 1;
    } else {
      run += char;
      at += 1;
    }
  }
  endRun();
  return runs;
}

/** A quantifier at `at` and whether it allows zero repetitions (so the character before it may be absent). */
function quantifierAt(source: string, at: number): { length: number; optional: boolean } | null {
  const bracesAt = /\{(\d+)(,\d*)?\}/y;
  bracesAt.lastIndex = at;
  const braces = bracesAt.exec(source);
  const char = source[at];
  const found =
    char === '*' || char === '?' ? { length: 1, optional: true }
    : char === '+' ? { length: 1, optional: false }
    : braces ? { length: braces[0].length, optional: Number(braces[1]) === 0 }
    : null;
  if (!found) return null;
  return source[at + found.length] === '?' ? { ...found, length: found.length + 1 } : found;
}

/** The index after the group or class opening at `at`, nested groups, classes and escapes included. */
function skipBracketed(source: string, at: number): number {
  let depth = 0;
  let inClass = false;
  for (let index = at; index < source.length; index += 1) {
    const char = source[index];
    if (char === '\\') index += 1;
    else if (inClass) inClass = char !== ']';
    else if (char === '[') inClass = true;
    else if (char === '(') depth += 1;
    else if (char === ')') depth -= 1;
    if (depth === 0 && !inClass) return index + 1;
  }
  return source.length;
}

/** The index after an escape that is not plain text: `\d`, `\b`, `\x41`, `\u{1F600}`, `\p{L}`, `\k<name>`, `\12`, `\cJ`. */
function skipEscape(source: string, at: number): number {
  const letter = source[at + 1] ?? '';
  const rest = source.slice(at + 2);
  const tail =
    letter === 'x' ? /^[0-9A-Fa-f]{0,2}/
    : letter === 'u' ? /^(\{[^}]*\}|[0-9A-Fa-f]{0,4})/
    : letter === 'p' || letter === 'P' ? /^(\{[^}]*\})?/
    : letter === 'k' ? /^(<[^>]*>)?/
    : letter === 'c' ? /^[A-Za-z]?/
    : /^\d*/;
  return at + 2 + (tail.exec(rest)?.[0].length ?? 0);
}

/** One UTF-16 unit that stands for itself in a byte search: not half a surrogate pair, not U+FFFD (what bad UTF-8 decodes to). */
function isPlain(char: string): boolean {
  const code = char.charCodeAt(0);
  return !(code >= 0xd800 && code <= 0xdfff) && code !== 0xfffd;
}
