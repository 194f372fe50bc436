import type { PlannedToolCall } from './plan.js';

/** Deterministic stand-in for a tokenizer: one token per four characters, rounded up. */
export function estimateTokens(characters: number): number {
  return Math.ceil(characters / 4);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function contentCharacters(content: unknown): number {
  if (typeof content === 'string') return content.length;
  if (!Array.isArray(content)) return 0;
  return content.reduce<number>(
    (sum, part) => sum + (isRecord(part) && typeof part['text'] === 'string' ? part['text'].length : 0),
    0,
  );
}

function toolCallCharacters(toolCalls: unknown): number {
  if (!Array.isArray(toolCalls)) return 0;
  return toolCalls.reduce<number>((sum, call) => {
    const fn = isRecord(call) ? call['function'] : undefined;
    if (!isRecord(fn)) return sum;
    const name = typeof fn['name'] === 'string' ? fn['name'].length : 0;
    const args = typeof fn['arguments'] === 'string' ? fn['arguments'].length : 0;
    return sum + name + args;
  }, 0);
}

/**
 * Counts message text, text parts, tool-call names and arguments, and the tool definitions sent (real
 * servers render them into the prompt and count them); everything else is free.
 */
export function estimatePromptTokens(messages: readonly unknown[], tools: readonly unknown[] = []): number {
  const characters = messages.reduce<number>(
    (sum, message) =>
      isRecord(message) ? sum + contentCharacters(message['content']) + toolCallCharacters(message['tool_calls']) : sum,
    0,
  );
  return estimateTokens(characters + (tools.length > 0 ? JSON.stringify(tools).length : 0));
}

export function estimateCompletionTokens(text: string | null, toolCalls: readonly PlannedToolCall[]): number {
  const toolCharacters = toolCalls.reduce((sum, call) => sum + call.name.length + call.arguments.length, 0);
  return estimateTokens((text ?? '').length + toolCharacters);
}
