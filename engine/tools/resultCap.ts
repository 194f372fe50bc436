/**
 * How much of one tool result the model sees in its context. The full result is always in the tool log;
 * a longer one is cut here with a note naming recall_tool_result and the log id.
 */
export const contextResultChars = 20_000;

/** The text the model sees for a result: whole, or its head plus a note saying how to read on. */
export function resultForContext(result: string, logId: number): string {
  if (result.length <= contextResultChars) return result;
  return (
    `${result.slice(0, contextResultChars)}\n` +
    `[Result truncated: showing characters 0–${contextResultChars.toLocaleString('en-US')} of ${result.length.toLocaleString('en-US')}. ` +
    `The full result is tool-log entry ${logId}: call recall_tool_result with id ${logId} and offset ${contextResultChars} to read on.]`
  );
}
