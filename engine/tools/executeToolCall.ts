import { z } from 'zod';
import type { Phase } from '../contract/index.js';
import type { TablePreview } from '../contract/tablePreview.js';
import type { ToolLog } from '../store/toolLog.js';
import { hiddenPrefix, maskStrings } from '../secrets/secretMask.js';
import { PathRefusedError } from '../workspace/pathRules.js';
import { mcpToolPrefix } from '../contract/mcpToolName.js';
import { phaseTools } from './phaseTools.js';
import { resultForContext } from './resultCap.js';
import { ToolError, type Tool, type ToolContext } from './tool.js';
import { toolCatalog } from './toolCatalog.js';

/** One call as the model sent it; `arguments` is JSON text, or an object from servers that send one. */
export interface ToolCallRequest {
  name: string;
  arguments: unknown;
}

export interface ExecutedToolCall {
  /** The tool-log id of this call. */
  id: number;
  ok: boolean;
  /** The full result, as stored in the tool log. */
  result: string;
  /** What the model reads: the result, or its head and a note naming recall_tool_result and the id. */
  contextText: string;
  /** The rows a table tool handed back for the activity feed, masked like the result. */
  preview?: TablePreview;
  durationMs: number;
  /** Set when the call never reached the tool: not allowed in this phase, arguments that don't fit, or the user said no. */
  refused?: Refusal;
}

export type Refusal = 'phase' | 'arguments' | 'denied' | 'expired';

/**
 * What stands between a validated call and its tool: approval, a checkpoint before a change. `origin` says
 * where a call the model did not make in its turn comes from (a plan item's check), for the approval to tell.
 */
export type ToolGuard = (tool: Tool, args: Record<string, unknown>, signal: AbortSignal, origin?: string) => Promise<GuardOutcome>;
export type GuardOutcome = { proceed: true; args: Record<string, unknown> } | { proceed: false; result: string; refused: 'denied' | 'expired' };

export interface ExecuteOptions {
  phase: Phase;
  runId: string;
  context: ToolContext;
  /** Where every call is recorded; it assigns the ids the model recalls results by. */
  log: Pick<ToolLog, 'append'>;
  /** The catalog to look tools up in; the full one unless a test narrows it. */
  catalog?: ReadonlyMap<string, Tool>;
  /** Tools a tool source (the user's MCP servers) offered for this turn: callable as offered, in this phase. */
  extraTools?: readonly Tool[];
  /** Runs after validation and before the tool; without it every call runs. */
  guard?: ToolGuard;
}

/**
 * Runs one tool call from the model: checks the phase allows it, parses and validates its arguments,
 * runs it, and records it in the tool log. Never throws for anything the model did: every failure is a
 * result the model can read. A call outside the phase's tool set is refused and logged, never run.
 */
export async function executeToolCall(call: ToolCallRequest, options: ExecuteOptions): Promise<ExecutedToolCall> {
  const started = performance.now();
  const { maskSecrets } = options.context;
  const unmasked = await outcomeOf(call, options);
  const outcome = {
    ...unmasked,
    result: maskSecrets(unmasked.result),
    args: maskStrings(unmasked.args, maskSecrets),
    ...(unmasked.preview ? { preview: maskStrings(unmasked.preview, maskSecrets) } : {}),
  };
  const durationMs = Math.round(performance.now() - started);
  const { id } = await options.log.append({
    runId: options.runId,
    phase: options.phase,
    tool: call.name,
    args: outcome.args,
    result: outcome.result,
    ok: outcome.ok,
    durationMs,
    ts: Date.now(),
  });
  const contextText = call.name === 'recall_tool_result' ? outcome.result : resultForContext(outcome.result, id);
  return {
    id,
    ok: outcome.ok,
    result: outcome.result,
    contextText,
    durationMs,
    ...(outcome.preview ? { preview: outcome.preview } : {}),
    ...(outcome.refused ? { refused: outcome.refused } : {}),
  };
}

interface Outcome {
  ok: boolean;
  result: string;
  preview?: TablePreview;
  args: unknown;
  refused?: Refusal;
}

async function outcomeOf(call: ToolCallRequest, { phase, context, catalog = toolCatalog, extraTools = [], guard }: ExecuteOptions): Promise<Outcome> {
  const offered = extraTools.find((candidate) => candidate.name === call.name);
  const allowed = [...phaseTools[phase], ...extraTools.map((extra) => extra.name)];
  const tool = offered ?? catalog.get(call.name);
  if (!tool || !allowed.includes(call.name)) {
    const known = tool
      ? `${call.name} is not available in the ${phase} phase`
      : call.name.startsWith(mcpToolPrefix)
        ? `${call.name} is not among the MCP tools offered in the ${phase} phase (tools that may change things are offered in Implement only)`
        : `there is no tool named "${call.name}"`;
    const offer = allowed.length ? `Tools you can use now: ${allowed.join(', ')}.` : 'No tools can be used now.';
    return { ok: false, result: `Refused: ${known}. ${offer}`, args: call.arguments, refused: 'phase' };
  }
  const parsed = parseArguments(call.arguments);
  if (!parsed.ok) return { ok: false, result: `Invalid arguments for ${tool.name}: ${parsed.error}`, args: call.arguments, refused: 'arguments' };
  const validated = tool.parameters.safeParse(parsed.value);
  if (!validated.success) {
    const problems = validated.error.issues.map((issue) => `${issue.path.join('.') || 'arguments'}: ${issue.message}`).join('; ');
    return { ok: false, result: `Invalid arguments for ${tool.name}: ${problems}. ${parameterHint(tool)}`, args: parsed.value, refused: 'arguments' };
  }
  let args = parsed.value;
  let input = validated.data;
  if (tool.mutates && JSON.stringify(args).includes(hiddenPrefix)) {
    return { ok: false, result: placeholderRefusal(tool), args, refused: 'arguments' };
  }
  try {
    if (guard) {
      const outcome = await guard(tool, args, context.signal);
      if (!outcome.proceed) return { ok: false, result: outcome.result, args, refused: outcome.refused };
      if (outcome.args !== args) {
        args = outcome.args;
        input = tool.parameters.parse(args);
      }
    }
    const { text, preview } = await tool.run(input, context);
    return { ok: true, result: text, ...(preview ? { preview } : {}), args };
  } catch (error) {
    return { ok: false, result: failureText(tool, error, context.signal), args };
  }
}

/** Arguments as the model sent them (JSON text, an object, or nothing) read as one JSON object, or why not. */
export function parseArguments(raw: unknown): { ok: true; value: Record<string, unknown> } | { ok: false; error: string } {
  if (raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '')) return { ok: true, value: {} };
  if (typeof raw !== 'string') return isPlainObject(raw) ? { ok: true, value: raw } : { ok: false, error: 'they must be a JSON object.' };
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    return { ok: false, error: `they are not valid JSON (${(error as Error).message}). Send one JSON object, e.g. {"path": "src/app.ts"}.` };
  }
  return isPlainObject(value) ? { ok: true, value } : { ok: false, error: 'they must be a JSON object, e.g. {"path": "src/app.ts"}.' };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A masked secret written back would replace the real value with the placeholder. */
function placeholderRefusal(tool: Tool): string {
  return (
    `Refused: the arguments of ${tool.name} contain "${hiddenPrefix}…]", which stands for a secret the workbench kept from you; ` +
    'writing it would replace the real value. Leave those parts of files as they are (edit around them with edit_file), or ask the user to set them.'
  );
}

function parameterHint(tool: Tool): string {
  const properties = tool.jsonSchema?.['properties'] ?? z.toJSONSchema(tool.parameters, { io: 'input' }).properties ?? {};
  const names = Object.keys(properties);
  return names.length ? `Parameters of ${tool.name}: ${names.join(', ')}.` : '';
}

function failureText(tool: Tool, error: unknown, signal: AbortSignal): string {
  if (error instanceof ToolError || error instanceof PathRefusedError) return error.message;
  if (signal.aborted) return `${tool.name} was cancelled by the user.`;
  const code = (error as NodeJS.ErrnoException).code;
  const message = error instanceof Error ? error.message : String(error);
  return `${tool.name} failed: ${code ? `${code}: ` : ''}${message}`;
}
