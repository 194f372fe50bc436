/** The plan.md of DESIGN §3: one pending, one done and one failed item, with its original count. */
export const designPlanExample = `# Execution Plan
<!-- original_count: 3 -->

## Items
- [ ] 1. Parse statement — read bank.csv and normalise dates and amounts
- [x] 2. Categorise — ...
- [!] 3. Write workbook — ... [Failed: write_xlsx rejected sheet name]
`;
