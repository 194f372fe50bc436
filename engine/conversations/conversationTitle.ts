/** A title is one short line: longer ones are cut with an ellipsis. */
export const maxTitleChars = 120;

export const untitled = 'New conversation';

// Neutralising control characters is this function's whole job.
/* eslint-disable no-control-regex */
const controls = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]+/g;
/* eslint-enable no-control-regex */

/**
 * A title as it may be shown anywhere: text typed by the user or read from the folder (a cloned repository
 * can plant any bytes) on one line, with every control character, bidi override and run of spaces made a
 * single space, and cut to maxTitleChars. Empty when nothing visible is left.
 */
export function oneLineTitle(text: string): string {
  const line = text.replace(controls, ' ').replace(/\s+/g, ' ').trim();
  return line.length > maxTitleChars ? `${line.slice(0, maxTitleChars - 1).trimEnd()}…` : line;
}
