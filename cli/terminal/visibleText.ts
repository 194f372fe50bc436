/**
 * Text from the model or the folder, made safe to show on a terminal: every character a terminal could
 * obey is replaced by a visible stand-in, and everything else is kept.
 *
 * - C0 controls and DEL become their Unicode control pictures (ESC → ␛, BEL → ␇, CR → ␍, DEL → ␡),
 *   one column wide like the character they stand for;
 * - C1 controls (U+0080–U+009F: some terminals obey U+009B as CSI and U+009D as OSC) and the bidi
 *   embeddings, overrides and isolates that reorder what is shown ("Trojan Source") become `<U+009B>`.
 *
 * strip-ansi and util.stripVTControlCharacters delete sequences (and only the ones they parse); here
 * nothing is deleted, so what the model wrote can still be read, and a lone control cannot slip through.
 */

const controlPictures = 0x2400;
const deletePicture = '\u2421';

// Matching control characters is this file's whole job.
/* eslint-disable no-control-regex */
/** Shown in text of several lines: every control but line feed, tab, and a CR right before a line feed. */
const obeyed = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]|\r(?!\n)/g;
/** Shown in one-line text: every control. */
const obeyedInOneLine = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
/* eslint-enable no-control-regex */
/** What JSON.stringify leaves unescaped although a terminal may obey it. */
const unescapedByJson = /[\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

function standIn(char: string): string {
  const code = char.charCodeAt(0);
  if (code < 0x20) return String.fromCharCode(controlPictures + code);
  if (code === 0x7f) return deletePicture;
  return `<U+${code.toString(16).toUpperCase().padStart(4, '0')}>`;
}

/** For text that may span lines (the summary, the plan, error messages): line feeds and tabs are kept, a CR only right before a line feed. */
export function visibleText(text: string): string {
  return text.replace(obeyed, standIn);
}

/** For text that must stay on its line (the status line, tool lines, an approval's question): line feeds, CRs and tabs are shown too. */
export function visibleLine(text: string): string {
  return text.replace(obeyedInOneLine, standIn);
}

/**
 * JSON for a terminal: the same value as JSON.stringify gives (JSON.parse reads it back unchanged), with
 * DEL, C1 controls and bidi overrides, which JSON.stringify leaves raw, escaped as `\u009b`.
 */
export function terminalJson(value: unknown, indent?: number): string {
  return JSON.stringify(value, null, indent).replace(unescapedByJson, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
