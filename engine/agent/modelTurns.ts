import type { ContextKeeper, FittedRequest } from './history/contextKeeper.js';
import { LlmError, type ChatMessage, type LlmReply } from '../llm/llmTypes.js';
import { textToolInstructions } from '../llm/textToolProtocol.js';
import { refusedTwiceError } from '../llm/llmErrorMessages.js';
import { markLast } from '../llm/cacheHints/cacheBreakpoints.js';
import { promptWasCut } from '../llm/contextWindow/promptWasCut.js';
import { warmSearchWorkers } from '../tools/search/runSearch.js';
import { searchFiles } from '../tools/searchFiles.js';
import type { Tool } from '../tools/tool.js';
import { toolDefinitions } from '../tools/toolCatalog.js';
import type { AgentLoopConfig, TurnUsage } from './agentLoopTypes.js';
import { throwIfStopped } from './loopStopped.js';

/** A refusal that names no window leaves later loops this share of the window they had. */
const refusedWindowShare = 0.7;

/**
 * The model calls of one loop, one per turn: each request fitted to the loop's context, the tools sent
 * natively or in the text protocol, and each turn's usage recorded and reported.
 */
export class ModelTurns {
  private asked = 0;
  readonly usage: TurnUsage[] = [];

  constructor(
    private readonly config: AgentLoopConfig,
    private readonly loop: {
      context: ContextKeeper;
      /** The loop's own signal, which also fires on timeout. */
      signal: AbortSignal;
    },
  ) {}

  /** Turns asked so far (a request asked again after a refusal or a fallback is the same turn). */
  get turns(): number {
    return this.asked;
  }

  /**
   * One model call; in text mode the tools travel in the system prompt instead of the request. The request
   * is fitted to the context budget first; when the server still finds it too long, the budget shrinks
   * and the same turn is asked once more (no tool runs again: tools run only after a reply).
   */
  async ask(tools: readonly Tool[]): Promise<LlmReply> {
    throwIfStopped(this.loop.signal);
    this.asked += 1;
    // While the model thinks, search_files' workers start (or are kept), so its first search of a phase
    // finds them ready instead of paying for their start; warmed at a tool call, they came too late for that.
    if (tools.some((tool) => tool.name === searchFiles.name)) warmSearchWorkers();
    const definitions = toolDefinitions(tools);
    let refused: LlmError | null = null;
    for (;;) {
      const textMode = this.config.toolMode.mode === 'text';
      const fitted = await this.loop.context.fit((fit) => {
        // The turn's last message ends the prefix the next turn repeats (a breakpoint where one is sent).
        const messages = markLast(fit);
        return {
          messages: textMode && definitions.length > 0 ? withTextTools(messages, textToolInstructions(definitions)) : messages,
          ...(textMode ? {} : { tools: definitions }),
        };
      });
      await this.reportTrim(fitted, refused !== null);
      // A loop's first request is counted whatever its size: its fixed part is told, and its count checked against the server's.
      const firstCount = this.asked === 1 ? await fitted.promptTokens() : null;
      if (firstCount !== null && refused === null) this.config.onFixedPart?.({ tokens: firstCount, budget: this.loop.context.budget });
      try {
        const reply = await this.config.llm.complete(fitted.request, {
          signal: this.loop.signal,
          onStatus: (status) => this.config.emit({ type: 'model-status', runId: this.config.runId, phase: this.config.phase, ...status }),
          ...(this.config.onTextDelta ? { onTextDelta: this.config.onTextDelta } : {}),
        });
        this.recordUsage(reply);
        // Only a loop's first request is checked: later ones share a prefix a server may have cached, and
        // some count only the tokens they had to process (llama.cpp before it added cache_n).
        const counted = reply.usage.promptTokens;
        if (firstCount !== null && !reply.usage.estimated && promptWasCut({ sentEstimate: firstCount, reportedPromptTokens: counted, contextWindow: counted })) {
          this.config.onPromptCut?.({ sentTokens: firstCount, countedTokens: counted });
        }
        return reply;
      } catch (error) {
        if (error instanceof LlmError && error.kind === 'tools-unsupported' && this.config.toolMode.fallBackToText()) {
          this.config.emit({ type: 'warning', runId: this.config.runId, message: `${error.message} Switching to the text tool protocol for this run.` });
          continue;
        }
        if (error instanceof LlmError && error.kind === 'context-exceeded') {
          if (refused === null) {
            refused = error;
            this.loop.context.shrink(error.contextLimit);
            this.config.onWindowRefused?.(error.contextLimit ?? Math.floor(this.config.contextWindow * refusedWindowShare));
            continue;
          }
          throw refusedTwiceError({
            baseUrl: this.config.llm.baseUrl,
            status: error.status,
            promptTokens: await fitted.promptTokens(),
            contextWindow: this.config.contextWindow,
            serverLimit: error.contextLimit ?? refused.contextLimit,
          });
        }
        throw error;
      }
    }
  }

  /** Shows what fitting the request changed, and the budget after the server refused a request as too long. */
  private async reportTrim({ trimmed, promptTokens }: FittedRequest, afterRefusal: boolean): Promise<void> {
    if (!trimmed && !afterRefusal) return;
    const tokens = await promptTokens();
    const { setAside = 0, condensed = 0, cut = 0 } = trimmed ?? {};
    this.config.emit({
      type: 'context-trimmed',
      runId: this.config.runId,
      phase: this.config.phase,
      ...(this.config.item === undefined ? {} : { item: this.config.item }),
      setAside,
      condensed,
      cut,
      promptTokens: tokens,
      budget: this.loop.context.budget,
      contextWindow: this.config.contextWindow,
      ...(afterRefusal ? { afterRefusal } : {}),
    });
  }

  private recordUsage(reply: LlmReply): void {
    const { estimated, ...turn } = reply.usage;
    this.usage.push(turn);
    this.config.emit({ type: 'usage', runId: this.config.runId, phase: this.config.phase, ...turn, contextWindow: this.config.contextWindow, estimated, model: this.config.llm.model });
  }
}

function withTextTools(history: readonly ChatMessage[], instructions: string): ChatMessage[] {
  const [first, ...rest] = history;
  if (first?.role === 'system' && typeof first.content === 'string') {
    return [{ role: 'system', content: `${first.content}\n\n${instructions}` }, ...rest];
  }
  return [{ role: 'system', content: instructions }, ...history];
}
