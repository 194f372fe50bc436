import { InvalidArgumentError, Option, type Command } from 'commander';
import { checkCommandSchema, contextWindowRange, promptCachingSchema, toolModeSchema, type Phase, type PromptCaching, type ToolMode } from '../../engine/contract/index.js';

/** The options of run, resume and regenerate, as commander hands them over. */
export interface RunFlags {
  baseUrl?: string;
  /** `--model <name>`: one model for every phase, over the models Settings gives each phase. */
  model?: string;
  /** `--research-model <name>` and the like: that phase on another model of the same server. */
  researchModel?: string;
  planModel?: string;
  implementModel?: string;
  summaryModel?: string;
  apiKey?: string;
  toolMode?: ToolMode;
  retries?: number;
  promptCaching?: PromptCaching;
  /** `--context-window <tokens>`: the window for this run, over Settings and what the server says. */
  contextWindow?: number;
  json?: boolean;
  yes?: boolean;
  reviewPlan?: boolean;
  /** `--mcp <name>` (repeatable): only these MCP servers; `--no-mcp`: none; absent: every enabled one. */
  mcp?: string[] | false;
  /** `--check <command>`: the folder's check command for this session, over the one in Settings. */
  check?: string;
}

export function isHttpUrl(value: string): boolean {
  return URL.canParse(value) && /^https?:$/.test(new URL(value).protocol);
}

export function parseBaseUrl(value: string): string {
  if (!URL.canParse(value)) throw new InvalidArgumentError('must be a URL, e.g. http://localhost:11434/v1.');
  if (!isHttpUrl(value)) throw new InvalidArgumentError('must be an http:// or https:// URL.');
  return value;
}

export function parseRetries(value: string): number {
  const retries = Number(value);
  if (!/^\d+$/.test(value.trim()) || retries > 10) throw new InvalidArgumentError('must be a whole number from 0 to 10.');
  return retries;
}

export function parseContextWindow(value: string): number {
  const tokens = Number(value);
  if (!/^\d+$/.test(value.trim()) || tokens < contextWindowRange.min || tokens > contextWindowRange.max) {
    throw new InvalidArgumentError(`must be a whole number of tokens from ${count(contextWindowRange.min)} to ${count(contextWindowRange.max)}.`);
  }
  return tokens;
}

const count = (tokens: number) => tokens.toLocaleString('en-US');

export function parseCheckCommand(value: string): string {
  const parsed = checkCommandSchema.safeParse(value);
  if (!parsed.success) throw new InvalidArgumentError(`${parsed.error.issues[0]?.message ?? 'must be a command line'}.`);
  return parsed.data;
}

/** A model name given by a flag: trimmed, never empty. */
export function parseModelName(value: string): string {
  const name = value.trim();
  if (name === '') throw new InvalidArgumentError('must name a model, e.g. gpt-4.1-mini.');
  return name;
}

/** The phases given a model by their own flag. */
export function phaseModelFlags(flags: RunFlags): Partial<Record<Phase, string>> {
  const given: Partial<Record<Phase, string | undefined>> = {
    research: flags.researchModel,
    plan: flags.planModel,
    implement: flags.implementModel,
    summary: flags.summaryModel,
  };
  return Object.fromEntries(Object.entries(given).filter(([, model]) => model !== undefined)) as Partial<Record<Phase, string>>;
}

/** Adds the model, output and approval options shared by every command that starts a run. */
export function withRunFlags(command: Command): Command {
  return command
    .option('--base-url <url>', 'the OpenAI-compatible server (default: $OPENAI_BASE_URL, then Settings)', parseBaseUrl)
    .option('--model <name>', 'the model of every phase (default: $RPI_MODEL, then Settings, where each phase may have its own)', parseModelName)
    .option('--research-model <name>', 'the model of Research, on the same server (default: --model, then Settings)', parseModelName)
    .option('--plan-model <name>', 'the model of Plan, on the same server (default: --model, then Settings)', parseModelName)
    .option('--implement-model <name>', 'the model of Implement, on the same server (default: --model, then Settings)', parseModelName)
    .option('--summary-model <name>', 'the model of the Summary, on the same server (default: --model, then Settings)', parseModelName)
    .option('--api-key <key>', 'the API key (prefer $OPENAI_API_KEY: a flag is visible to other users in the process list)')
    .addOption(new Option('--tool-mode <mode>', 'how the model calls tools (default: Settings, else auto)').choices(toolModeSchema.options))
    .option('--retries <n>', 'tries again after a failed model call (429, 5xx, a dropped or stalled stream), 0 to 10 (default: Settings, else 4)', parseRetries)
    .addOption(
      new Option('--prompt-caching <mode>', 'cache hints to the servers that document them, or none (default: Settings, else auto)').choices(promptCachingSchema.options),
    )
    .option('--context-window <tokens>', "the model's context window for this run, over Settings and what the server says (default: Settings, else the server's, else 8,192)", parseContextWindow)
    .option('--json', 'print every engine event as one JSON line on stdout, unchanged; logs go to stderr')
    .option('--yes', 'approve every approval request and the plan review')
    .option('--review-plan', 'stop after Plan for review: approve, edit in $EDITOR, or reject (needs a terminal, or --yes)')
    .option('--check <command>', "run this command after every plan item without a check of its own, and once more after the last item (default: the folder's check command in Settings)", parseCheckCommand)
    .option('--mcp <name>', 'use only this MCP server of mcp.json in the config directory, even if disabled there (repeat for more)', collectNames)
    .option('--no-mcp', 'start no MCP server');
}

function collectNames(name: string, earlier: string[] | false | undefined): string[] {
  return [...(Array.isArray(earlier) ? earlier : []), name];
}
