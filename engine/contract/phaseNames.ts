/** How a phase is named to a person; free of zod, so a sandboxed page may load it. */
export const phaseNames = { research: 'Research', plan: 'Plan', implement: 'Implement', summary: 'Summary' } as const;
