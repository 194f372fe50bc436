import type { LlmToolCall } from './llmTypes.js';
import { isRecord } from './streamFrames.js';
import { ToolCallAssembler } from './toolCallAssembler.js';
import type { ReportedUsage } from './usage/tokenUsage.js';
import { usageFromTimings, usageFromWire } from './usage/wireUsage.js';

/** A complete reply as streamed; usage is null when the server sent none. */
export interface StreamedReply {
  text: string;
  reasoning: string;
  /**
   * What of the reasoning must go back with the reply in the next request, in the field the server used:
   * DeepSeek's thinking mode refuses a tool loop's next turn without `reasoning_content`, and OpenRouter
   * carries Gemini's thought signatures in `reasoning_details`. Empty when the server sent neither.
   */
  reasoningEcho: Record<string, unknown>;
  toolCalls: LlmToolCall[];
  finishReason: string;
  usage: ReportedUsage | null;
}

/** What a chunk carried, so the caller can tell the user the model is thinking or answering. */
export interface ChunkNews {
  reasoning: boolean;
  answer: boolean;
  /** The chunk ended the reply with `finish_reason: "error"`: the server gave up on it. */
  failed: boolean;
}

/**
 * Gathers the chunks of one attempt, as real servers send them: text as a string or as an array of
 * parts (Mistral), reasoning apart from the text (`reasoning_content`: DeepSeek, vLLM, llama.cpp;
 * `reasoning`: OpenRouter, Ollama, Groq; Mistral's `thinking` parts), tool-call fragments in every
 * known shape (toolCallAssembler.ts), the finish reason on whichever chunk carries it, and usage in any of
 * its shapes (wireUsage.ts) from `usage` (on its own chunk or the finish chunk), Groq's `x_groq.usage`,
 * the choice's own `usage` (Moonshot/Kimi) or llama.cpp's `timings`; the latest one sent stands.
 * Chunks without choices (Azure's prompt_filter_results, the usage chunk) and unknown fields are fine.
 */
export class ChunkReader {
  private readonly textPieces: string[] = [];
  private readonly reasoningPieces: string[] = [];
  private reasoningField: 'reasoning_content' | null = null;
  private readonly reasoningDetails: unknown[] = [];
  private readonly toolCalls = new ToolCallAssembler();
  private finishReason: string | null = null;
  private usage: StreamedReply['usage'] = null;
  private usageFromTimings = false;
  private choicesSeen = 0;

  constructor(private readonly onText: (text: string) => void) {}

  read(chunk: Record<string, unknown>): ChunkNews {
    const choice = firstChoice(chunk['choices']);
    this.readUsage(chunk, choice);
    if (!choice) return { reasoning: false, answer: false, failed: false };
    this.choicesSeen += 1;
    const delta = isRecord(choice['delta']) ? choice['delta'] : isRecord(choice['message']) ? choice['message'] : {};
    const { text, reasoning } = contentOf(delta);
    if (text !== '') {
      this.textPieces.push(text);
      this.onText(text);
    }
    if (reasoning !== '') this.reasoningPieces.push(reasoning);
    if (typeof delta['reasoning_content'] === 'string' && delta['reasoning_content'] !== '') this.reasoningField = 'reasoning_content';
    const details = Array.isArray(delta['reasoning_details']) ? (delta['reasoning_details'] as unknown[]) : [];
    this.reasoningDetails.push(...details);
    const calls = delta['tool_calls'];
    this.toolCalls.addAll(calls);
    // Typed as OpenAI's few reasons, but servers send others (and some an empty string while streaming).
    const finishReason = choice['finish_reason'];
    if (typeof finishReason === 'string' && finishReason !== '') this.finishReason = finishReason;
    const answer = text !== '' || (Array.isArray(calls) && calls.length > 0);
    // This chunk's reasoning only: one after the answer began (an empty finish chunk) does not make the model think again.
    return { reasoning: reasoning !== '' || details.length > 0, answer, failed: finishReason === 'error' };
  }

  /** The reply, or why there is none: the stream never said why it ended, or never carried a choice at all. */
  reply(): StreamedReply | 'no-finish-reason' | 'no-choices' {
    if (this.finishReason === null) return this.choicesSeen === 0 ? 'no-choices' : 'no-finish-reason';
    const reasoning = this.reasoningPieces.join('');
    return {
      text: this.textPieces.join(''),
      reasoning,
      reasoningEcho: {
        ...(this.reasoningField ? { reasoning_content: reasoning } : {}),
        ...(this.reasoningDetails.length > 0 ? { reasoning_details: this.reasoningDetails } : {}),
      },
      toolCalls: this.toolCalls.calls(),
      finishReason: this.finishReason,
      usage: this.usage,
    };
  }

  /** Usage wherever this chunk carries it; llama.cpp's timings only while no usage proper has come. */
  private readUsage(chunk: Record<string, unknown>, choice: Record<string, unknown> | undefined): void {
    const groq = isRecord(chunk['x_groq']) ? chunk['x_groq']['usage'] : undefined;
    const usage = usageFromWire(chunk['usage']) ?? usageFromWire(groq) ?? usageFromWire(choice?.['usage']);
    if (usage) {
      this.usage = usage;
      this.usageFromTimings = false;
      return;
    }
    const timed = this.usage === null || this.usageFromTimings ? usageFromTimings(chunk['timings']) : null;
    if (timed) {
      this.usage = timed;
      this.usageFromTimings = true;
    }
  }
}

function firstChoice(choices: unknown): Record<string, unknown> | undefined {
  if (!Array.isArray(choices)) return undefined;
  const records = choices.filter(isRecord);
  return records.find((choice) => choice['index'] === 0 || choice['index'] === undefined) ?? records[0];
}

/** Text and reasoning of a delta, whichever shapes they come in. */
function contentOf(delta: Record<string, unknown>): { text: string; reasoning: string } {
  let text = '';
  let reasoning = '';
  const content = delta['content'];
  if (typeof content === 'string') text = content;
  else if (Array.isArray(content)) {
    for (const part of content.filter(isRecord)) {
      if (part['type'] === 'thinking' || part['type'] === 'reasoning') reasoning += partText(part['thinking'] ?? part['text'] ?? part['reasoning']);
      else if (typeof part['text'] === 'string') text += part['text'];
    }
  }
  // OpenAI's refusal stands where the answer would: without it the reply would read as empty.
  if (typeof delta['refusal'] === 'string') text += delta['refusal'];
  // Some servers send both names with the same text; one is enough.
  const separate = [delta['reasoning_content'], delta['reasoning']].find((value) => typeof value === 'string' && value !== '');
  if (typeof separate === 'string') reasoning += separate;
  return { text, reasoning };
}

/** Mistral nests thinking as parts of its own: `thinking: [{type: "text", text: "…"}]`. */
function partText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (!Array.isArray(value)) return '';
  return value.map((part) => (isRecord(part) && typeof part['text'] === 'string' ? part['text'] : typeof part === 'string' ? part : '')).join('');
}
