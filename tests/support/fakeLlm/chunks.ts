import type { PlannedToolCall, PlannedTurn } from './plan.js';
import type { FinishReason, Quirk } from './types.js';
import { wireTimings, wireUsage, type WireUsage } from './usageShapes.js';

/** Wire shapes, looser than the SDK's types because quirks deliberately break them. */
export type WireArguments = string | Record<string, unknown>;

export interface WireToolCallFragment {
  index?: number;
  id?: string | null;
  type?: 'function';
  function: { name?: string | null; arguments?: WireArguments };
  extra_content?: { google: { thought_signature: string } };
}

export type WireContentPart = { type: 'text'; text: string } | { type: 'thinking'; thinking: { type: 'text'; text: string }[] };

export interface WireDelta {
  role?: 'assistant';
  content?: string | null | WireContentPart[];
  reasoning_content?: string;
  reasoning?: string;
  /** OpenRouter's structured reasoning, sent beside `reasoning`, to be sent back with the next turn. */
  reasoning_details?: { type: 'reasoning.text'; text: string; format: string; index: number }[];
  tool_calls?: WireToolCallFragment[];
}

export interface WireChoice {
  index: 0;
  delta?: WireDelta;
  logprobs?: null;
  finish_reason?: FinishReason | null;
  content_filter_results?: Record<string, unknown>;
  usage?: WireUsage;
}

export interface WireChunk {
  id: string;
  object: 'chat.completion.chunk';
  created: number;
  model: string;
  choices: WireChoice[];
  usage?: WireUsage | null;
  x_groq?: { id: string; usage?: WireUsage };
  timings?: ReturnType<typeof wireTimings>;
  prompt_filter_results?: unknown[];
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

/** The thought signature Gemini attaches to a call, opaque to the client; the fake checks it comes back. */
export function thoughtSignatureOf(call: PlannedToolCall): string {
  return `sig-${Buffer.from(call.id).toString('base64url')}`;
}

/**
 * One call's fragments as the turn's quirks frame it. OpenAI: a head (index, id, name, empty arguments)
 * then argument pieces with the index only. The quirks reproduce the shapes other servers send.
 */
function toolCallFragments(call: PlannedToolCall, position: number, turn: PlannedTurn): WireToolCallFragment[] {
  const { quirks } = turn;
  const has = (quirk: Quirk) => quirks.has(quirk);
  const index = has('index-0-for-every-call') ? 0 : position + (has('indexes-from-1') ? 1 : 0);
  const at = (offset: number) => (has('fragments-without-index') ? {} : { index: index + offset });
  const signature = has('thought-signatures') ? { extra_content: { google: { thought_signature: thoughtSignatureOf(call) } } } : {};
  if (has('arguments-as-object') || has('whole-call-per-fragment') || has('all-calls-in-one-chunk')) {
    const args = has('arguments-as-object') ? argumentsAsObject(call) : call.arguments;
    return [{ ...at(0), ...(has('fragments-without-id') ? {} : { id: call.id }), type: 'function', function: { name: call.name, arguments: args }, ...signature }];
  }
  const head: WireToolCallFragment = {
    ...at(0),
    ...(has('fragments-without-id') ? {} : { id: has('changing-id') ? `${call.id}-0` : call.id }),
    type: 'function',
    function: has('no-arguments-on-head') ? { name: call.name } : { name: call.name, arguments: '' },
    ...signature,
  };
  const continuations = splitIntoPieces(call.arguments).map((piece, number): WireToolCallFragment => {
    const id = has('changing-id') ? { id: `${call.id}-${number + 1}` } : has('id-on-every-fragment') ? { id: call.id } : has('null-id-on-continuation') ? { id: null } : {};
    const name = has('name-on-every-fragment') ? { name: call.name } : has('null-name-on-continuation') ? { name: null } : has('empty-name-on-continuation') ? { name: '' } : {};
    return { ...at(has('head-and-arguments-on-different-indexes') ? 1 : 0), ...id, function: { ...name, arguments: piece } };
  });
  return [head, ...continuations];
}

/** Every chunk of a complete stream, in order, as OpenAI frames them (before `[DONE]`), reshaped by the turn's quirks. */
export function streamChunks(turn: PlannedTurn, meta: ResponseMeta, includeUsage: boolean): WireChunk[] {
  const has = (quirk: Quirk) => turn.quirks.has(quirk);
  const finishKey = (finishReason: FinishReason | null) => (has('finish-reason-key-absent') && finishReason === null ? {} : { finish_reason: finishReason });
  const chunk = (delta: WireDelta, finishReason: FinishReason | null = null): WireChunk => ({
    ...meta,
    object: 'chat.completion.chunk',
    choices: [{ index: 0, delta, logprobs: null, ...finishKey(finishReason) }],
    ...(includeUsage && !has('usage-in-x-groq') && !has('usage-as-timings') && !has('usage-in-choice') ? { usage: null } : {}),
  });
  const chunks: WireChunk[] = [];
  if (has('azure-filter-chunks')) chunks.push({ ...meta, object: 'chat.completion.chunk', choices: [], prompt_filter_results: [{ prompt_index: 0, content_filter_results: {} }] });
  chunks.push(chunk({ role: 'assistant', content: turn.text === null && !has('content-as-parts') ? null : '' }));
  for (const piece of splitIntoPieces(turn.reasoning ?? '')) chunks.push(chunk(reasoningDelta(piece, turn.quirks)));
  for (const piece of splitIntoPieces(turn.text ?? '')) chunks.push(chunk({ content: has('content-as-parts') ? [{ type: 'text', text: piece }] : piece }));
  const fragments = turn.toolCalls.flatMap((call, position) => toolCallFragments(call, position, turn));
  if (has('all-calls-in-one-chunk') && fragments.length > 0) chunks.push(chunk({ tool_calls: fragments }));
  else for (const fragment of fragments) chunks.push(chunk({ tool_calls: [fragment] }));
  if (turn.finishReason !== null) chunks.push(chunk({}, turn.finishReason));
  if (has('azure-filter-chunks')) chunks.push({ ...meta, object: 'chat.completion.chunk', choices: [{ index: 0, finish_reason: null, content_filter_results: { hate: { filtered: false, severity: 'safe' } } }] });
  return withUsage(chunks, turn, meta, includeUsage);
}

/** Where the usage goes: its own last chunk (OpenAI), the finish chunk, the finish chunk's choice (Moonshot), Groq's x_groq, or llama.cpp's timings. */
function withUsage(chunks: WireChunk[], turn: PlannedTurn, meta: ResponseMeta, includeUsage: boolean): WireChunk[] {
  const has = (quirk: Quirk) => turn.quirks.has(quirk);
  const last = chunks.at(-1);
  if (has('usage-as-timings') && last) {
    last.timings = wireTimings(turn.usage);
    return chunks;
  }
  if (!includeUsage) return chunks;
  const usage = wireUsage(turn.usage, turn.usageShape);
  if (has('usage-in-x-groq') && last) {
    last.x_groq = { id: 'req_fake', usage };
    return chunks;
  }
  const finish = chunks.findLast((candidate) => candidate.choices[0]?.finish_reason);
  const finishChoice = finish?.choices[0];
  if (has('usage-in-choice') && finishChoice) {
    finishChoice.usage = usage;
    return chunks;
  }
  if (has('usage-on-finish-chunk') && finish) {
    finish.usage = usage;
    return chunks;
  }
  return [...chunks, { ...meta, object: 'chat.completion.chunk', choices: [], usage }];
}

function reasoningDelta(piece: string, quirks: ReadonlySet<Quirk>): WireDelta {
  if (quirks.has('content-as-parts')) return { content: [{ type: 'thinking', thinking: [{ type: 'text', text: piece }] }] };
  if (quirks.has('reasoning-details')) return { reasoning: piece, reasoning_details: [{ type: 'reasoning.text', text: piece, format: 'unknown', index: 0 }] };
  return quirks.has('reasoning-field') ? { reasoning: piece } : { reasoning_content: piece };
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
    usage: wireUsage(turn.usage, turn.usageShape),
  };
}
