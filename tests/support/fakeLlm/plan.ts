import { normaliseFault, truncateArguments } from './faults.js';
import type { Fault, FinishReason, Quirk, ScriptedToolCall, ScriptedTurn, UsageShape } from './types.js';
import { estimateCompletionTokens, estimatePromptTokens } from './usage.js';
import type { PlannedUsage } from './usageShapes.js';

export interface PlannedToolCall {
  id: string;
  name: string;
  /** Always a string here; `arguments-as-object` parses it back at framing time. */
  arguments: string;
}

/** A scripted turn with defaults filled in and faults applied to its content, ready to frame. */
export interface PlannedTurn {
  text: string | null;
  reasoning: string | null;
  toolCalls: PlannedToolCall[];
  /** null only under the `no-finish-reason` fault. */
  finishReason: FinishReason | null;
  usage: PlannedUsage;
  usageShape: UsageShape;
  delayMs: number;
  fault: Fault | null;
  quirks: ReadonlySet<Quirk>;
}

export interface PlanInput {
  turn: ScriptedTurn;
  /** 0-based count of planned turns, used for deterministic tool-call ids. */
  turnNumber: number;
  requestMessages: readonly unknown[];
  /** The request's tool definitions, counted into the prompt as real servers do. */
  requestTools?: readonly unknown[];
}

function planToolCall(call: ScriptedToolCall, id: string, fault: Fault | null): PlannedToolCall {
  const argumentsJson = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
  return {
    id: call.id ?? id,
    name: call.name,
    arguments: fault?.type === 'malformed-arguments' ? truncateArguments(argumentsJson) : argumentsJson,
  };
}

function planFinishReason(turn: ScriptedTurn, fault: Fault | null, quirks: ReadonlySet<Quirk>): FinishReason | null {
  if (fault?.type === 'no-finish-reason') return null;
  if (turn.finishReason !== undefined) return turn.finishReason;
  const hasToolCalls = (turn.toolCalls?.length ?? 0) > 0;
  return hasToolCalls && !quirks.has('tool-calls-finish-with-stop') ? 'tool_calls' : 'stop';
}

export function planTurn({ turn, turnNumber, requestMessages, requestTools = [] }: PlanInput): PlannedTurn {
  const fault = normaliseFault(turn.fault);
  const quirks = new Set(turn.quirks === undefined ? [] : [turn.quirks].flat());
  const text = turn.text ?? null;
  const toolCalls = (turn.toolCalls ?? []).map((call, position) =>
    planToolCall(call, `call_fake_${turnNumber}_${position}`, fault),
  );
  const { promptTokens = estimatePromptTokens(requestMessages, requestTools), completionTokens = estimateCompletionTokens(text, toolCalls), ...parts } = turn.usage ?? {};
  return {
    text,
    reasoning: turn.reasoning ?? null,
    toolCalls,
    finishReason: planFinishReason(turn, fault, quirks),
    usage: { promptTokens, completionTokens, ...parts },
    usageShape: turn.usageShape ?? 'openai',
    delayMs: turn.delayMs ?? 0,
    fault,
    quirks,
  };
}
