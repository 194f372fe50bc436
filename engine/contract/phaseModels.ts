import { z } from 'zod';

/**
 * What one phase runs on, as Settings shows it: the default model, another model on the same server, or
 * another connection (its own base URL, model and key). The key itself never crosses, only whether one is set.
 */
export const phaseModelViewSchema = z.discriminatedUnion('use', [
  z.object({ use: z.literal('default') }),
  z.object({
    use: z.literal('model'),
    model: z.string(),
    /** null: automatic, learned from the server for this model. */
    contextWindow: z.number().int().positive().nullable(),
  }),
  z.object({
    use: z.literal('connection'),
    baseUrl: z.string(),
    model: z.string(),
    contextWindow: z.number().int().positive().nullable(),
    apiKeySet: z.boolean(),
  }),
]);
export type PhaseModelView = z.infer<typeof phaseModelViewSchema>;

/** Research, Plan, Implement and Summary, each with its model. */
export const phaseModelsViewSchema = z.object({
  research: phaseModelViewSchema,
  plan: phaseModelViewSchema,
  implement: phaseModelViewSchema,
  summary: phaseModelViewSchema,
});
export type PhaseModelsView = z.infer<typeof phaseModelsViewSchema>;

/** The model that ran each phase of a request, null for a phase that made no model call. */
export interface PhaseModelNames {
  research: string | null;
  plan: string | null;
  implement: string | null;
  summary: string | null;
}
