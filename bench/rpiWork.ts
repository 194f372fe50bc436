import type { Phase } from '../engine/contract/index.js';
import type { ScriptedTurn } from '../tests/support/fakeLlm/index.js';
import { changingPieces, entities, errorCode, type Entity } from './rpiProject.js';

/**
 * The scripted work of the RPI token benchmark: what a model would do for the request below, as tool calls
 * and final texts, and the two ways of serving it (phase by phase, or as one long conversation).
 */

export const request =
  'Our HTTP layer answers 500 for every domain error because the 12 domain modules in src/ throw plain Error. ' +
  'Make each of them throw AppError from src/errors.ts instead: <MODULE>_INVALID for validation failures, ' +
  '<MODULE>_NOT_FOUND for unknown ids and <MODULE>_BAD_QUERY for a bad page size, so that src/http.ts maps them to ' +
  '400 and 404. Keep the messages exactly as they are.';

interface ToolStep {
  name: string;
  args: Record<string, unknown>;
}

/** One agent loop of the RPI run: its tool calls in order, then its final text (the phase's answer). */
export interface WorkStep {
  phase: Phase;
  calls: ToolStep[];
  text: string;
}

const read = (path: string): ToolStep => ({ name: 'read_file', args: { path } });

const research: WorkStep = {
  phase: 'research',
  calls: [
    read('README.md'),
    read('src/index.ts'),
    read('src/errors.ts'),
    read('src/http.ts'),
    { name: 'search_files', args: { pattern: 'throw new Error\\(', path: 'src' } },
    read('src/cart.ts'),
    read('src/orders.ts'),
    read('tests/cart.test.ts'),
  ],
  text: `## Request
Make the 12 domain modules in src/ throw AppError (with <MODULE>_INVALID / _NOT_FOUND / _BAD_QUERY codes) instead of plain Error, so that src/http.ts answers 400/404 instead of 500. Messages must stay the same.

## Relevant files
- src/errors.ts — \`AppError(code, message)\`; \`statusFor\` maps codes ending in _NOT_FOUND to 404 and _INVALID / _BAD_QUERY to 400, anything that is not an AppError to 500.
- src/http.ts — \`Router.handle\` catches whatever a handler throws and calls \`errorResponse\`, which uses \`statusFor\`; nothing to change there.
- src/{${entities.map((entity) => entity.module).join(',')}}.ts — one store per domain, all built the same way (read cart.ts and orders.ts in full):
  - \`validate<Type>(input)\`: one \`throw new Error('<Type>: <field> …')\` per checked field (boolean fields are not checked).
  - \`<Type>Store.get\` and \`.remove\`: \`throw new Error(\\\`<Type> \${id} not found\\\`)\`.
  - \`<Type>Store.list\`: \`throw new Error(\\\`limit must be between 1 and \${MAX_PAGE}\\\`)\` when the page size is out of range.
  - Each imports only \`systemClock, type Clock\` from './clock.js' today.
- search_files found ${entities.reduce((sum, entity) => sum + changingPieces(entity, 'plain').validate.split('\n').length - 2 + 3, 0)} \`throw new Error(\` lines, all in those 12 modules; none in errors.ts, http.ts or clock.ts.
- tests/<module>.test.ts — vitest; they assert with \`toThrow('not found')\` and \`toThrow('limit')\`, i.e. on message text, so they keep passing as long as messages are unchanged.

## How it works now
ES modules with \`.js\` import specifiers; no default exports; two-space indentation, single quotes. \`npm test\` runs vitest, \`npm run build\` runs tsc. The README asks domain code to throw AppError with a code; these modules predate that.

## Constraints and risks
- Keep every message byte for byte (API clients see them).
- Codes are the module name upper-cased: CART_INVALID, ORDERS_NOT_FOUND, … (the request says <MODULE>).
- \`update\` calls \`get\` and \`validate<Type>\`, so it is covered without its own change.

## Open questions
- None that block the change; dependencies are not installed here, so the tests may not run.`,
};

function itemLabel(entity: Entity): string {
  const codes = ['INVALID', 'NOT_FOUND', 'BAD_QUERY'] as const;
  return (
    `${entity.type} errors — in src/${entity.module}.ts import AppError and throw it with ` +
    `${codes.map((code) => errorCode(entity, code)).join(' / ')} (validate${entity.type}; get and remove; the list limit), messages unchanged; ` +
    'verify with grep that no plain `new Error(` is left'
  );
}

const plan: WorkStep = {
  phase: 'plan',
  calls: [{ name: 'list_files', args: { path: 'src' } }],
  text: `# Execution Plan

Each domain module changes on its own and in the same way; the tests match on message text, which stays the same. src/errors.ts and src/http.ts need no change.

## Items
${entities.map((entity, index) => `- [ ] ${index + 1}. ${itemLabel(entity)}`).join('\n')}
`,
};

function implementItem(entity: Entity): WorkStep {
  const before = changingPieces(entity, 'plain');
  const after = changingPieces(entity, 'app');
  const file = `src/${entity.module}.ts`;
  const edit = (piece: keyof typeof before): ToolStep => ({ name: 'edit_file', args: { path: file, old_text: before[piece], new_text: after[piece] } });
  const checks = after.validate.split('\n').length - 2;
  return {
    phase: 'implement',
    calls: [
      read(file),
      edit('imports'),
      edit('validate'),
      edit('getMissing'),
      edit('removeMissing'),
      edit('badLimit'),
      { name: 'run_command', args: { command: `grep -c "new AppError(" ${file} && ! grep -n "new Error(" ${file}` } },
    ],
    text:
      `Changed ${file}: it imports AppError from ./errors.js; validate${entity.type} throws AppError('${errorCode(entity, 'INVALID')}', …) for each of its ${checks} checks; ` +
      `get and remove throw AppError('${errorCode(entity, 'NOT_FOUND')}', …); list throws AppError('${errorCode(entity, 'BAD_QUERY')}', …) for a bad limit. Messages unchanged.\n` +
      `Verified with grep: ${checks + 3} AppError throws and no plain \`new Error(\` left.`,
  };
}

const summary: WorkStep = {
  phase: 'summary',
  calls: [],
  text: `All 12 domain modules now throw \`AppError\` with a code, so the HTTP layer answers 400 for invalid input and bad page sizes and 404 for unknown ids instead of 500. Messages are unchanged.

Files changed:
${entities.map((entity) => `- **src/${entity.module}.ts** — ${errorCode(entity, 'INVALID')}, ${errorCode(entity, 'NOT_FOUND')}, ${errorCode(entity, 'BAD_QUERY')}`).join('\n')}

Each module was checked with grep for leftover plain \`new Error(\`; the tests were not run, since dependencies are not installed in this folder. Run \`npm test\` to confirm.`,
};

/** The whole job: research, plan, one loop per module, summary. */
export const work: readonly WorkStep[] = [research, plan, ...entities.map(implementItem), summary];

const callTurn = (step: ToolStep, text?: string): ScriptedTurn => ({ toolCalls: [{ name: step.name, arguments: step.args }], ...(text ? { text } : {}) });

/** RPI: each loop makes its calls, then answers with its text and no tool call, which ends that loop. */
export function rpiScript(steps: readonly WorkStep[]): ScriptedTurn[] {
  return steps.flatMap((step) => [...step.calls.map((call) => callTurn(call)), { text: step.text }]);
}

/**
 * One long loop: the same calls in the same order. A reply without a tool call would end the loop, so each
 * loop's answer travels as the text of the next tool-call turn (findings, plan, item reports stay in the
 * history, as they would in a real conversation), and only the last one ends the loop.
 */
export function singleLoopScript(steps: readonly WorkStep[]): ScriptedTurn[] {
  const turns: ScriptedTurn[] = [];
  let carried: string | undefined;
  for (const step of steps) {
    for (const call of step.calls) {
      turns.push(callTurn(call, carried));
      carried = undefined;
    }
    carried = step.text;
  }
  return [...turns, { text: carried ?? '' }];
}
