import { rarestByteRank } from './rarestByte.js';

/** Characters that might match another character under the i flag: all but ASCII digits, punctuation and space. */
const caseSensitive = /[^\x20-\x40\x5b-\x60\x7b-\x7e]+/;
/** Texts a set holds at most: each one costs a byte search through every file. */
const maxTexts = 8;
/** The longest text a set keeps while pieces are joined onto it. */
const maxLength = 64;

/** What the regex finds out about one piece of a pattern: an atom, a sequence, a group, an alternation. */
interface Piece {
  /** Every text the piece matches, when they are few and short enough to list (a literal, `(Count|Delay)`); else null. */
  exact: string[] | null;
  /** Texts of which every match of the piece contains one, the best found within it; null when none is certain. */
  required: string[] | null;
}

const anything: Piece = { exact: null, required: null };
/** An assertion (`^`, `\b`, a lookahead): it matches no text, so it joins its neighbours. */
const nothing: Piece = { exact: [''], required: null };

/**
 * Texts of which every match of the regex contains at least one, or null when none are certain. Workers
 * look for them with a native byte search and skip the (far slower) decoding and regex run on files
 * with none of them, as ripgrep does with the literals it extracts.
 *
 * A literal run gives one text (`loadConfig`); a group of plain alternatives joins onto its neighbours
 * (`retry(Count|Delay)` gives retryCount and retryDelay); a top-level `|` gives the texts of each side
 * (`TODO|FIXME`), or none if one side has none. Anything else ends a run of text: a class, an escape
 * other than escaped punctuation, a quantifier that allows zero (the piece is left out) or more than one
 * (the run ends after its first repetition). Of the sets found, the one whose texts are the least likely
 * in source code is taken (see better). Under the i flag only text without letters qualifies, as letters
 * could match in either case.
 */
export function requiredLiterals(source: string, flags: string): string[] | null {
  const parser = new PatternPieces(source, flags.includes('i'));
  const whole = parser.alternation();
  // Read to its end, or the pattern held what this reading does not know: no claim is made then.
  return parser.done() ? whole.required : null;
}

class PatternPieces {
  private at = 0;

  constructor(
    private readonly source: string,
    private readonly caseless: boolean,
  ) {}

  done(): boolean {
    return this.at >= this.source.length;
  }

  /** Branches separated by `|`, up to the end or the `)` closing the group. */
  alternation(): Piece {
    const branches = [this.sequence()];
    while (this.source[this.at] === '|') {
      this.at += 1;
      branches.push(this.sequence());
    }
    return branches.length === 1 ? branches[0]! : eitherOf(branches);
  }

  private sequence(): Piece {
    const pieces = new Sequence(this.caseless);
    while (this.at < this.source.length && this.source[this.at] !== '|' && this.source[this.at] !== ')') {
      const atom = this.atom();
      const quantifier = quantifierAt(this.source, this.at);
      if (!quantifier) {
        pieces.add(atom);
        continue;
      }
      this.at += quantifier.length;
      if (quantifier.min === 0) {
        pieces.add(anything);
      } else {
        pieces.add(atom);
        if (!quantifier.once) pieces.add(anything);
      }
    }
    return pieces.result();
  }

  private atom(): Piece {
    const { source } = this;
    const char = source[this.at]!;
    if (char === '(') return this.group();
    if (char === '[') {
      this.at = skipBracketed(source, this.at);
      return anything;
    }
    if (char === '\\') {
      const next = source[this.at + 1] ?? '';
      if (next === 'b' || next === 'B') {
        this.at += 2;
        return nothing;
      }
      if (/[^\p{L}\p{N}]/u.test(next) && isPlain(next)) {
        this.at += 2;
        return { exact: [next], required: null };
      }
      this.at = skipEscape(source, this.at);
      return anything;
    }
    this.at += 1;
    if (char === '^' || char === '$') return nothing;
    if (char === '.' || !isPlain(char)) return anything;
    return { exact: [char], required: null };
  }

  /** A group: its alternation when it matches text; a lookaround matches none; any other `(?` form is not read. */
  private group(): Piece {
    const opener = /^\((\?:|\?<(?![=!])[^>]*>)?/.exec(this.source.slice(this.at, this.at + 64))!;
    if (this.source[this.at + 1] === '?' && !opener[1]) {
      const lookaround = /^\(\?(=|!|<=|<!)/.test(this.source.slice(this.at, this.at + 4));
      this.at = skipBracketed(this.source, this.at);
      return lookaround ? nothing : anything;
    }
    this.at += opener[0].length;
    const inside = this.alternation();
    this.at += 1; // the closing ')': the RegExp constructor accepted the pattern, so groups are balanced
    return inside;
  }
}

/**
 * The pieces of one branch, joined into runs of exact text while they last, the best required set seen
 * kept. Beside each run, the plain text since its last piece of several texts: `(get|set)Value` is
 * best looked for as Value, one text as rare as both of getValue and setValue.
 */
class Sequence {
  private run: string[] = [''];
  private plain = '';
  private whole = true;
  private best: string[] | null = null;

  constructor(private readonly caseless: boolean) {}

  add(piece: Piece): void {
    this.consider(piece.required);
    if (!piece.exact) {
      this.endRun();
      return;
    }
    if (piece.exact.length === 1) {
      this.plain += piece.exact[0];
    } else {
      this.consider([this.plain]);
      this.plain = '';
    }
    const joined = joinedTexts(this.run, piece.exact);
    if (joined) {
      this.run = joined;
      return;
    }
    this.endRun();
    this.run = piece.exact;
    this.plain = piece.exact.length === 1 ? piece.exact[0]! : '';
  }

  result(): Piece {
    const exact = this.whole ? this.run : null;
    this.endRun();
    return { exact, required: this.best };
  }

  private endRun(): void {
    this.consider(this.run);
    this.consider([this.plain]);
    this.run = [''];
    this.plain = '';
    this.whole = false;
  }

  private consider(texts: string[] | null): void {
    const usable = texts && (this.caseless ? texts.map(longestLetterless) : texts);
    if (usable && !usable.includes('') && (!this.best || better(usable, this.best))) this.best = usable;
  }
}

/** Each text of `before` followed by each of `after`; null when that makes too many or too long. */
function joinedTexts(before: readonly string[], after: readonly string[]): string[] | null {
  if (before.length * after.length > maxTexts) return null;
  const joined = [...new Set(before.flatMap((head) => after.map((tail) => head + tail)))];
  return joined.every((text) => text.length <= maxLength) ? joined : null;
}

/** `a|b|c`: it matches what any branch does, so each branch must say what it requires. */
function eitherOf(branches: readonly Piece[]): Piece {
  const exact = branches.every((branch) => branch.exact) ? [...new Set(branches.flatMap((branch) => branch.exact!))] : null;
  const required = branches.every((branch) => branch.required) ? [...new Set(branches.flatMap((branch) => branch.required!))] : null;
  return {
    exact: exact && exact.length <= maxTexts ? exact : null,
    required: required && required.length <= maxTexts ? required : null,
  };
}

/**
 * Whether set `a` is cheaper to look for than `b`: its likeliest text is the less likely one (its rarest
 * byte, the one a search stops at, is rarer); then fewer texts (one byte search each); then longer ones.
 */
function better(a: readonly string[], b: readonly string[]): boolean {
  const rank = (texts: readonly string[]) => Math.min(...texts.map((text) => rarestByteRank(Buffer.from(text))));
  const shortest = (texts: readonly string[]) => Math.min(...texts.map((text) => text.length));
  const [rankA, rankB] = [rank(a), rank(b)];
  return rankA !== rankB ? rankA > rankB : a.length !== b.length ? a.length < b.length : shortest(a) > shortest(b);
}

function longestLetterless(text: string): string {
  return text.split(caseSensitive).reduce((best, piece) => (piece.length > best.length ? piece : best), '');
}

/** A quantifier at `at`: how many repetitions it allows at least, and whether at most one. */
function quantifierAt(source: string, at: number): { length: number; min: number; once: boolean } | null {
  const bracesAt = /\{(\d+)(,(\d*))?\}/y;
  bracesAt.lastIndex = at;
  const braces = bracesAt.exec(source);
  const char = source[at];
  const found =
    char === '*' ? { length: 1, min: 0, once: false }
    : char === '?' ? { length: 1, min: 0, once: true }
    : char === '+' ? { length: 1, min: 1, once: false }
    : braces ? { length: braces[0].length, min: Number(braces[1]), once: braces[2] === undefined ? Number(braces[1]) <= 1 : braces[3] !== '' && Number(braces[3]) <= 1 }
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

/** The index after an escape that is not plain text: `\d`, `\x41`, `\u{1F600}`, `\p{L}`, `\k<name>`, `\12`, `\cJ`. */
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
