import type { RegexSpec } from './matchMessages.js';
import { rarestByteOffset } from './rarestByte.js';
import { requiredLiterals } from './requiredLiterals.js';
import { PatternError } from './searchErrors.js';

/** A leading PCRE-style flag group such as `(?i)`: models write it, JavaScript has no syntax for it. */
const inlineFlags = /^\(\?([ims]+)\)/;

/**
 * Turns the model's pattern into a regex spec for the workers: JavaScript syntax, global and multiline,
 * with a leading `(?i)` / `(?s)` taken as the i / s flag. Unicode mode is used where the pattern allows
 * it (so `\p{L}` works) and dropped where it does not (so loose escapes like `\-` or `\:` still do).
 */
export function compilePattern(pattern: string): RegexSpec {
  const inline = inlineFlags.exec(pattern);
  const source = inline ? pattern.slice(inline[0].length) : pattern;
  const flags = `gm${[...new Set(inline?.[1])].filter((flag) => flag !== 'm').join('')}`;
  try {
    return spec(new RegExp(source, `${flags}u`));
  } catch {
    try {
      return spec(new RegExp(source, flags));
    } catch (error) {
      throw new PatternError(
        `The pattern ${JSON.stringify(pattern)} is not a valid regular expression: ${reasonOf(error)}. ` +
          'search_files takes JavaScript regex syntax; put a backslash before any of ( ) [ ] { } . * + ? ^ $ | \\ to match it literally.',
      );
    }
  }
}

function spec({ source, flags }: RegExp): RegexSpec {
  const literals = requiredLiterals(source, flags)?.map((text) => ({ text, anchor: rarestByteOffset(Buffer.from(text)) })) ?? null;
  return { source, flags, literals };
}

/** "Invalid regular expression: /(a/gm: Unterminated group" → "unterminated group". */
function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const reason = message.slice(message.lastIndexOf(': ') + 2) || message;
  return reason.charAt(0).toLowerCase() + reason.slice(1);
}
