import type { SseItem } from './sseItems.js';

/** An error a server reported in its stream (or in a body where a stream was expected), in its own words. */
export interface ReportedError {
  message: string;
  /** `code`, `type` or a status number, as the server gave them. */
  code?: unknown;
  type?: unknown;
}

/** What one stream item means for the reply. */
export type Frame =
  | { kind: 'chunk'; chunk: Record<string, unknown> }
  | { kind: 'done' }
  | { kind: 'keep-alive' }
  | { kind: 'error'; error: ReportedError }
  /** A data line that is not JSON: the start of it, to name in the message. */
  | { kind: 'garbled'; sample: string }
  | { kind: 'ignored' };

const SAMPLE_LENGTH = 80;

/**
 * Reads one SSE item the way real servers mean it. Errors come in several shapes, all recognised:
 * `data: {"error": {…}}` (OpenAI, llama.cpp, vLLM; OpenRouter adds `choices` with `finish_reason:
 * "error"`), a flat `data: {"object": "error", "message": …}` (some vLLM versions), the non-standard
 * field `error: {…}` (older llama.cpp, then `[DONE]`), `event: error` (several gateways), and Gemini's
 * JSON array of errors.
 */
/**
 * The frames of one SSE item. Some servers (Baseten's GLM and Kimi deployments) end each event with a
 * single newline, so the parser joins several events into one data field: when the data does not parse
 * as a whole but every line of it does, each line is a frame of its own.
 */
export function framesOf(item: SseItem): Frame[] {
  const frame = frameOf(item);
  if (frame.kind !== 'garbled' || item.kind !== 'event') return [frame];
  const lines = item.data.split('\n').map((line) => line.replace(/^data:\s?/, '').trim()).filter((line) => line !== '');
  if (lines.length < 2) return [frame];
  const split = lines.map((data) => frameOf({ kind: 'event', event: item.event, data }));
  return split.some((part) => part.kind === 'garbled') ? [frame] : split;
}

export function frameOf(item: SseItem): Frame {
  if (item.kind === 'comment') return { kind: 'keep-alive' };
  if (item.kind === 'field') return item.field === 'error' ? { kind: 'error', error: reportedError(parseJson(item.value) ?? item.value) } : { kind: 'ignored' };
  const data = item.data.trim();
  if (data === '') return { kind: 'ignored' };
  if (data === '[DONE]') return { kind: 'done' };
  const value = parseJson(data);
  if (value === undefined) {
    return item.event === 'error' ? { kind: 'error', error: { message: data } } : { kind: 'garbled', sample: sampleOf(data) };
  }
  const error = errorIn(value) ?? (item.event === 'error' ? reportedError(value) : null);
  if (error) return { kind: 'error', error };
  return isRecord(value) ? { kind: 'chunk', chunk: value } : { kind: 'garbled', sample: sampleOf(data) };
}

/** The error a JSON body or frame reports, in any of the shapes above; null when it reports none. */
export function errorIn(value: unknown): ReportedError | null {
  if (Array.isArray(value)) return value.length > 0 ? errorIn(value[0]) : null;
  if (!isRecord(value)) return null;
  if (value['error'] !== undefined && value['error'] !== null && value['error'] !== false) return reportedError(value['error']);
  if (value['object'] === 'error' || value['type'] === 'error') return reportedError(value);
  return null;
}

function reportedError(value: unknown): ReportedError {
  if (typeof value === 'string') return { message: value };
  if (!isRecord(value)) return { message: JSON.stringify(value) ?? '' };
  if (isRecord(value['error'])) return reportedError(value['error']);
  const message = [value['message'], value['detail'], value['msg'], value['error']].find((candidate) => typeof candidate === 'string');
  return {
    message: typeof message === 'string' ? message : JSON.stringify(value),
    ...(value['code'] !== undefined ? { code: value['code'] } : {}),
    ...(value['type'] !== undefined && value['type'] !== 'error' ? { type: value['type'] } : {}),
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function sampleOf(data: string): string {
  return data.length > SAMPLE_LENGTH ? `${data.slice(0, SAMPLE_LENGTH)}…` : data;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
