/**
 * Lines given a number for the line alignment so far in this thread: the work a diff or a count does in
 * proportion to the text it looks at (the tests' way to see that a count of one changed line in a long
 * file looks at that line, not at the whole file).
 */
export const lineWork = { linesNumbered: 0 };

/** A copy of the counts so far. */
export function lineWorkSoFar(): { linesNumbered: number } {
  return { ...lineWork };
}
