/** An `@` being typed in the request box: where it starts, and the query typed after it up to the caret. */
export interface Mention {
  /** Index of the `@`. */
  start: number;
  /** Index just past the query: the caret. */
  end: number;
  query: string;
}

/**
 * The `@mention` the caret is in, if any: an `@` at the start of the text or after white space (so an
 * e-mail address is not one), followed by non-space characters up to the caret.
 */
export function mentionAt(text: string, caret: number): Mention | null {
  for (let index = caret - 1; index >= 0; index -= 1) {
    const char = text[index] ?? '';
    if (/\s/.test(char)) return null;
    if (char !== '@') continue;
    const before = index === 0 ? ' ' : text[index - 1] ?? ' ';
    return /\s/.test(before) ? { start: index, end: caret, query: text.slice(index + 1, caret) } : null;
  }
  return null;
}

/**
 * The text with the typed mention completed to the picked path (`@src/app.ts `), so the request still
 * reads as written, and where the caret goes: after it.
 */
export function completeMention(text: string, mention: Mention, path: string): { text: string; caret: number } {
  const rest = text.slice(mention.end);
  const inserted = `@${path}${rest.startsWith(' ') ? '' : ' '}`;
  return { text: text.slice(0, mention.start) + inserted + rest, caret: mention.start + inserted.length + (rest.startsWith(' ') ? 1 : 0) };
}
