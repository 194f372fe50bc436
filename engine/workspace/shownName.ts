/** A character that would break the line a name is shown on, or hide what follows it: C0 controls, DEL, the Unicode line and paragraph separators. */
// eslint-disable-next-line no-control-regex -- control characters are what it looks for
const breaking = /[\u0000-\u001f\u007f\u2028\u2029]/;
const escapes: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '"': '\\"', '\\': '\\\\' };
const unescapes: Record<string, string> = { n: '\n', r: '\r', t: '\t', '"': '"', '\\': '\\' };

/**
 * A file name or path as a tool shows it to the model: as it is, unless it holds a character that would
 * break its line (a newline in a name would forge an entry on the next one) or starts with a quote; then
 * quoted as git quotes one, `"a\nb"`, with `\"`, `\\` and `\xNN` / `\uNNNN` escapes, so a shown name is
 * never mistaken for another. unquotedName reads one back.
 */
export function shownName(name: string): string {
  if (!breaking.test(name) && !name.startsWith('"')) return name;
  let quoted = '"';
  for (const char of name) {
    const code = char.codePointAt(0)!;
    quoted += escapes[char] ?? (breaking.test(char) ? (code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`) : char);
  }
  return `${quoted}"`;
}

/** The name a quoted one as shownName writes it stands for; null when `text` is not one (it is then a name as it is). */
export function unquotedName(text: string): string | null {
  if (text.length < 2 || !text.startsWith('"') || !text.endsWith('"')) return null;
  let name = '';
  for (let at = 1; at < text.length - 1; at += 1) {
    const char = text[at]!;
    if (char === '"') return null;
    if (char !== '\\') {
      name += char;
      continue;
    }
    const next = text[at + 1] ?? '';
    const hex = next === 'x' ? 2 : next === 'u' ? 4 : 0;
    if (hex > 0) {
      const digits = text.slice(at + 2, at + 2 + hex);
      if (!/^[0-9a-f]+$/i.test(digits) || digits.length !== hex) return null;
      name += String.fromCharCode(Number.parseInt(digits, 16));
      at += 1 + hex;
    } else if (unescapes[next] !== undefined && at + 1 < text.length - 1) {
      name += unescapes[next];
      at += 1;
    } else return null;
  }
  return name;
}

/**
 * A path as the model wrote it, with what it copied of shown names read back: the whole path quoted (as
 * search results show one), or some of its steps (as list_files shows names in a folder).
 */
export function withNamesUnquoted(requested: string): string {
  const whole = unquotedName(requested);
  if (whole !== null) return whole;
  if (!requested.includes('"')) return requested;
  return requested
    .split('/')
    .map((step) => unquotedName(step) ?? step)
    .join('/');
}
