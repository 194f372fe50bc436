import type { PlannedToolCall, PlannedTurn } from './plan.js';
import type { FinishReason } from './types.js';
import type { WireUsage } from './usage.js';

/** Wire shapes, looser than the SDK's types because quirks deliberately break them. */
export type WireArguments = string | Record<string, unknown>;

export interface WireToolCallFragment {
  index?: number;
  id?: string;
  type?: 'function';
  function: { name?: string; arguments?: WireArguments };
}

export interface WireDelta {
  role?: 'assistant';
  content?: string | null;
  tool_calls?: WireToolCallFragment[];
}

export interface WireChunk {
  id: string;
  object: 'chat.completion.chunk';
  created: number;
  model: string;
  choices: { index: 0; delta: WireDelta; logprobs: null; finish_reason: FinishReason | null }[];
  usage?: WireUsage | null;
}

export interface WireCompletion {
  id: string;
  object: 'chat.completion';
  created: number;
  model: string;
  choices: {
    index: 0;
    message: { role: 'assistant'; content: string | null; refusal: null; tool_calls?: WireToolCall[] };
    logprobs: null;
    finish_reason: FinishReason | null;
  }[];
  usage: WireUsage;
}

interface WireToolCall {
  id?: string;
  type: 'function';
  function: { name: string; arguments: WireArguments };
}

export interface ResponseMeta {
  id: string;
  created: number;
  model: string;
}

const CHARACTERS_PER_PIECE = 20;
const MIN_PIECES = 3;

/** Splits into at least three pieces (fewer only for tiny strings), about 20 characters each; never splits a code point. */
export function splitIntoPieces(text: string): string[] {
  const characters = Array.from(text);
  const count = Math.min(characters.length, Math.max(MIN_PIECES, Math.ceil(characters.length / CHARACTERS_PER_PIECE)));
  const size = Math.ceil(characters.length / Math.max(1, count));
  const pieces: string[] = [];
  for (let start = 0; start < characters.length; start += size) {
    pieces.push(characters.slice(start, start + size).join(''));
  }
  return pieces;
}

function argumentsAsObject(call: PlannedToolCall): Record<string, unknown> {
  const problem = `quirk 'arguments-as-object' needs JSON-object arguments; tool call '${call.name}' has ${call.arguments}`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(call.arguments);
  } catch {
    throw new Error(problem);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error(problem);
  return parsed as Record<string, unknown>;
}

function toolCallFragments(call: PlannedToolCall, index: number, turn: PlannedTurn): WireToolCallFragment[] {
  const { quirks } = turn;
  const head: WireToolCallFragment = {
    ...(quirks.has('fragments-without-index') ? {} : { index }),
    ...(quirks.has('fragments-without-id') ? {} : { id: call.id }),
    type: 'function',
    function: { name: call.name, arguments: quirks.has('arguments-as-object') ? argumentsAsObject(call) : '' },
  };
  if (quirks.has('arguments-as-object')) return [head];
  const continuations = splitIntoPieces(call.arguments).map((piece): WireToolCallFragment => ({
    ...(quirks.has('fragments-without-index') ? {} : { index }),
    function: quirks.has('empty-name-on-continuation') ? { name: '', arguments: piece } : { arguments: piece },
  }));
  return [head, ...continuations];
}

/** Every chunk of a complete stream, in order, as OpenAI frames them (before `[DONE]`). */
export function streamChunks(turn: PlannedTurn, meta: ResponseMeta, includeUsage: boolean): WireChunk[] {
  const chunk = (delta: WireDelta, finishReason: FinishReason | null = null): WireChunk => ({
    ...meta,
    object: 'chat.completion.chunk',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    ...(includeUsage ? { usage: null } : {}),
  });
  const chunks = [chunk({ role: 'assistant', content: turn.text === null ? null : '' })];
  for (const piece of splitIntoPieces(turn.text ?? '')) chunks.push(chunk({ content: piece }));
  turn.toolCalls.forEach((call, index) => {
    for (const fragment of toolCallFragments(call, index, turn)) chunks.push(chunk({ tool_calls: [fragment] }));
  });
  if (turn.finishReason !== null) chunks.push(chunk({}, turn.finishReason));
  if (includeUsage) chunks.push({ ...meta, object: 'chat.completion.chunk', choices: [], usage: turn.usage });
  return chunks;
}

/** The non-streaming answer. Fragment quirks have no meaning here; id and argument quirks do. */
export function completionBody(turn: PlannedTurn, meta: ResponseMeta): WireCompletion {
  const toolCalls = turn.toolCalls.map(
    (call): WireToolCall => ({
      ...(turn.quirks.has('fragments-without-id') ? {} : { id: call.id }),
      type: 'function',
      function: {
        name: call.name,
        arguments: turn.quirks.has('arguments-as-object') ? argumentsAsObject(call) : call.arguments,
      },
    }),
  );
  const message = {
    role: 'assistant' as const,
    content: turn.text,
    refusal: null,
    ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
  };
  return {
    ...meta,
    object: 'chat.completion',
    choices: [{ index: 0, message, logprobs: null, finish_reason: turn.finishReason }],
    usage: turn.usage,
  };
}
