import type { ChatMessage, LlmRequest } from '../../llm/llmTypes.js';
import { parseArguments, type ExecutedToolCall } from '../../tools/executeToolCall.js';
import { budgetFor, lowWaterShare, shrunkBudget } from '../../context/contextBudget.js';
import { collapseOlderTurns, shortenOlderTexts } from './condense.js';
import { cutLatestResults } from './cutToFit.js';
import type { HistoryEntry, ResultOrigin } from './historyEntry.js';
import { RequestSize } from './requestSize.js';
import { setAsideOldest } from './setAside.js';

/** Older turns are condensed once they fill more than this share of the budget (set-aside stubs included). */
const condenseShare = 0.25;
/** The note that stands for condensed turns takes at most about this share of the budget… */
const noteShare = 0.1;
/** …counting this much per line (a call, its arguments and the first line of its result)… */
const noteLineTokens = 40;
/** …and lists at least this many of the latest calls. */
const minNoteLines = 5;

/** What one fit changed, counted: results set aside, older turns condensed, latest results cut. */
export interface Trimmed {
  setAside: number;
  condensed: number;
  cut: number;
}

export interface FittedRequest {
  request: LlmRequest;
  /**
   * The request's size by the engine's estimate. Counted when asked for, unless fitting had to count it:
   * a request that fits by a bound (see RequestSize.atMost) is sent without tokenizing its new messages.
   */
  promptTokens: () => Promise<number>;
  /** Null when the history was sent as it was: it fitted, or nothing in it could be trimmed. */
  trimmed: Trimmed | null;
}

/**
 * One loop's history, kept within its budget (DESIGN §4 "Context budget"). Before each model call,
 * `fit` leaves the history alone while it fits; when it does not: older tool results are set aside in
 * one large step, then older turns are condensed, then the latest results are cut, in that order. The
 * loop's first messages (system prompt, the phase's request or plan item) and its latest turn are never
 * set aside or condensed, and an assistant tool call always keeps its tool message.
 */
export class ContextKeeper {
  private readonly entries: HistoryEntry[];
  /** The loop's own turns start here; the messages before it are the phase's fresh context. */
  private readonly fresh: number;
  private readonly size = new RequestSize();
  private currentBudget: number;

  constructor(
    readonly contextWindow: number,
    messages: readonly ChatMessage[],
  ) {
    this.entries = messages.map((message) => ({ message }));
    this.fresh = messages.length;
    this.currentBudget = budgetFor(contextWindow);
  }

  get budget(): number {
    return this.currentBudget;
  }

  get messages(): ChatMessage[] {
    return this.entries.map((entry) => entry.message);
  }

  /** Adds a message; a tool result comes with its origin, so it can be set aside or cut later. */
  push(message: ChatMessage, result?: ResultOrigin): void {
    this.entries.push(result ? { message, result: { ...result, state: 'whole' } } : { message });
  }

  /** After the server refused a request as too long: a smaller budget, for the rest of this loop. */
  shrink(serverLimit: number | undefined): number {
    this.currentBudget = shrunkBudget(this.currentBudget, serverLimit);
    return this.currentBudget;
  }

  /** The request for the next model call, `build` making it from the history, trimmed to the budget. */
  async fit(build: (messages: ChatMessage[]) => LlmRequest): Promise<FittedRequest> {
    const request = build(this.messages);
    const budget = this.currentBudget;
    if ((await this.size.atMost(request)) <= budget) return { request, promptTokens: () => this.size.ofRequest(request), trimmed: null };
    let tokens = await this.size.ofRequest(request);
    if (tokens <= budget) return { request, promptTokens: counted(tokens), trimmed: null };
    const { entries, size } = this;
    const latest = this.latestTurnStart();
    const setAside = await setAsideOldest({ entries, before: latest, size, tokens, target: Math.floor(budget * lowWaterShare) });
    const trimmed: Trimmed = { setAside: setAside.count, condensed: 0, cut: 0 };
    tokens = setAside.tokens;
    // Older turns are condensed when they take a real share of the budget; a latest result that is merely
    // too big is cut instead, which leaves the older turns (and the cached prefix) as they were.
    if (tokens > budget && (await this.olderTurnsTokens(latest)) > budget * condenseShare) tokens = await this.condense(latest, tokens, trimmed);
    if (tokens > budget) tokens = await this.cut(tokens, trimmed);
    if (tokens > budget && trimmed.condensed === 0) {
      tokens = await this.condense(this.latestTurnStart(), tokens, trimmed);
      if (tokens > budget) await this.cut(tokens, trimmed);
    }
    const fitted = build(this.messages);
    // Nothing could go (the phase's own messages alone are too big): sent as it is, for the server to judge.
    const changed = trimmed.setAside + trimmed.condensed + trimmed.cut > 0;
    return { request: fitted, promptTokens: counted(await this.size.ofRequest(fitted)), trimmed: changed ? trimmed : null };
  }

  /** Older turns keep their first line, or (when that is not enough) become one note. */
  private async condense(latest: number, tokens: number, trimmed: Trimmed): Promise<number> {
    const step = { entries: this.entries, from: this.fresh, before: latest, size: this.size, tokens };
    const shortened = await shortenOlderTexts(step);
    trimmed.condensed = shortened.count;
    if (shortened.tokens <= this.currentBudget) return shortened.tokens;
    const maxLines = Math.max(minNoteLines, Math.floor((this.currentBudget * noteShare) / noteLineTokens));
    const collapsed = await collapseOlderTurns({ ...step, tokens: shortened.tokens, maxLines });
    trimmed.condensed = Math.max(trimmed.condensed, collapsed.count);
    return collapsed.tokens;
  }

  private async cut(tokens: number, trimmed: Trimmed): Promise<number> {
    const cut = await cutLatestResults({ entries: this.entries, from: this.latestTurnStart(), size: this.size, tokens, budget: this.currentBudget });
    trimmed.cut = Math.max(trimmed.cut, cut.count);
    return cut.tokens;
  }

  private async olderTurnsTokens(latest: number): Promise<number> {
    let total = 0;
    for (let index = this.fresh; index < latest; index += 1) total += await this.size.ofMessage(this.entries[index]!.message);
    return total;
  }

  /** Where the latest turn starts: the last assistant message of the loop (the note of condensed turns is not one). */
  private latestTurnStart(): number {
    for (let index = this.entries.length - 1; index >= this.fresh; index -= 1) {
      const entry = this.entries[index]!;
      if (entry.message.role === 'assistant' && !entry.noteLines) return index;
    }
    return this.entries.length;
  }
}

function counted(tokens: number): () => Promise<number> {
  return () => Promise.resolve(tokens);
}

/** The origin of a tool result as the loop adds it; `render` wraps a text the way this result travels. */
export function resultOrigin(tool: string, rawArgs: unknown, done: ExecutedToolCall, render: (text: string) => ChatMessage): ResultOrigin {
  const parsed = parseArguments(rawArgs);
  const args = typeof rawArgs === 'string' ? rawArgs : JSON.stringify(rawArgs ?? {});
  const origin: ResultOrigin = { tool, logId: done.id, args, fullChars: done.result.length, text: done.contextText, render };
  if (tool !== 'recall_tool_result' || !done.ok || !parsed.ok) return origin;
  const { id, offset = 0 } = parsed.value;
  return typeof id === 'number' && typeof offset === 'number' ? { ...origin, recalled: { id, offset } } : origin;
}
