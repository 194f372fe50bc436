/**
 * How long the parts of an ask_user question may be. The question is the model's text: the tool refuses
 * longer ones (the model reads why), so a page or a terminal never has to show more than this. Kept free
 * of zod so the question card (a sandboxed page) can use them; the contract's schemas enforce the same numbers.
 */
export const questionLimits = { question: 2_000, choices: 8, choice: 200, answer: 4_000 } as const;
