import { z } from 'zod';
import { contextWindowRange } from './model.js';

// The fields of requests that Settings and folder settings send, checked as typed: prices, URLs, commands, windows, models.

/** A string with something in it once trimmed; `what` says what it must be. */
export const nonEmpty = (what = 'must be a non-empty string') =>
  z.string({ error: what }).trim().min(1, { error: what });

/** A price in US dollars per million tokens, as typed in Settings. */
export const dollarsPerMillion = z
  .number({ error: 'must be a price in dollars per million tokens' })
  .nonnegative({ error: 'must be 0 or more' })
  .max(100_000, { error: 'must be at most 100,000 dollars per million tokens' });

export const httpUrl = z
  .string({ error: 'must be a URL string' })
  .trim()
  .refine(
    (value) => {
      try {
        const url = new URL(value);
        return url.protocol === 'http:' || url.protocol === 'https:';
      } catch {
        return false;
      }
    },
    { error: 'must be an http:// or https:// URL' },
  );

/** The longest check command a folder may set: a command line, not a script. */
export const maxCheckCommandChars = 2000;

/** A folder's check command: one command line, run as is in the folder after every plan item without a check of its own. */
export const checkCommandSchema = z
  .string({ error: 'must be a command line' })
  .trim()
  .min(1, { error: 'must be a command line, not empty (clear it to set none)' })
  .max(maxCheckCommandChars, { error: `must be at most ${maxCheckCommandChars.toLocaleString('en-US')} characters` })
  .refine((value) => !/[\r\n\0]/.test(value), { error: 'must be one line: a single command, e.g. npm test' });
/** A context window typed in Settings; null beside it means automatic, learned from the server. */
export const contextWindowTokens = z
  .number({ error: 'must be a number of tokens' })
  .int({ error: 'must be a whole number of tokens' })
  .min(contextWindowRange.min, { error: 'must be at least 1024 tokens' })
  .max(contextWindowRange.max, { error: 'must be at most 10,000,000 tokens' });

/**
 * One phase's model as the Settings form saves it: the default, another model on the same server, or
 * another connection whose key (a new one, null to forget it, absent to keep it) is stored like the main one.
 */
export const phaseModelPatchSchema = z.discriminatedUnion(
  'use',
  [
    z.strictObject({ use: z.literal('default') }),
    z.strictObject({ use: z.literal('model'), model: nonEmpty('must name a model'), contextWindow: contextWindowTokens.nullable().optional() }),
    z.strictObject({
      use: z.literal('connection'),
      baseUrl: httpUrl,
      model: nonEmpty('must name a model'),
      contextWindow: contextWindowTokens.nullable().optional(),
      apiKey: nonEmpty().nullable().optional(),
    }),
  ],
  { error: 'must be "default", "model" or "connection"' },
);
export type PhaseModelPatch = z.output<typeof phaseModelPatchSchema>;

export const phaseModelsPatchSchema = z.strictObject({
  research: phaseModelPatchSchema.optional(),
  plan: phaseModelPatchSchema.optional(),
  implement: phaseModelPatchSchema.optional(),
  summary: phaseModelPatchSchema.optional(),
});
