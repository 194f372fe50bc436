/**
 * How much a request may carry as context items. Kept free of zod so the composer (a sandboxed page)
 * can check them before sending; the contract's schema enforces the same numbers.
 */
export const contextItemLimits = {
  /** Items attached to one message. */
  maxItems: 20,
  /** Characters of an item's folder-relative path. */
  maxPathChars: 1000,
  /** Characters of one pasted note. */
  maxNoteChars: 50_000,
} as const;
