/** Past this many characters a string in a recorded tool argument is cut (the live event keeps it whole). */
const maxRecordedStringLength = 400;

/**
 * A copy of a JSON-like value with every string longer than `max` cut to its first `max` characters
 * and "… (N chars)" naming its full length, at any depth. The value itself is never changed.
 */
export function shortenStrings<T>(value: T, max = maxRecordedStringLength): T {
  return shorten(value, max) as T;
}

function shorten(value: unknown, max: number): unknown {
  if (typeof value === 'string') return value.length > max ? `${head(value, max)}… (${value.length} chars)` : value;
  if (Array.isArray(value)) return value.map((item) => shorten(item, max));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, shorten(item, max)]));
  }
  return value;
}

/** The first `max` UTF-16 units, one fewer when the cut would split a surrogate pair. */
function head(text: string, max: number): string {
  const last = text.charCodeAt(max - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? max - 1 : max);
}
