/** A character that would break the line a name is shown on, or hide what follows it: C0 controls, DEL, the Unicode line and paragraph separators. */
// eslint-disable-next-line no-control-regex -- control characters are what it looks for
const breaking = /[\u0000-\u001f\u007f\u2028\u2029]/;
const escapes: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '"': '\\"', '\\': '\\\\' };

/**
 * A file name or path as a tool shows it to the model: as it is, unless it holds a character that would
 * break its line (a newline in a name would forge an entry on the next one) or starts with a quote; then
 * quoted as git quotes one, `"a\nb"`, with `\"`, `\\` and `\xNN` / `\uNNNN` escapes, so a shown name is
 * never mistaken for another.
 */
export function shownName(name: string): string {
  if (!breaking.test(name) && !name.startsWith('"')) return name;
  let quoted = '"';
  for (const char of name) {
    const code = char.codePointAt(0)!;
    quoted += escapes[char] ?? (breaking.test(char) ? (code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16)}`) : char);
  }
  return `${quoted}"`;
}
