import type { Phase, UnsequencedEvent } from '../contract/index.js';
import type { ChatMessage, LlmClient, LlmError, LlmUsage } from '../llm/llmTypes.js';
import type { ToolLog } from '../store/toolLog.js';
import type { ToolGuard } from '../tools/executeToolCall.js';
import type { Tool, ToolContext } from '../tools/tool.js';
import type { ToolSource } from '../tools/toolSource.js';
import type { LoopLimits } from './loopLimits.js';
import type { ToolModeState } from './toolMode.js';

/** Everything one loop needs; each phase (and each plan item) builds a fresh one (seed 003 §4a). */
export interface AgentLoopConfig {
  phase: Phase;
  /** The plan item (index) the loop works on, in Implement: named in its tool-started and context-trimmed events. */
  item?: number;
  runId: string;
  llm: LlmClient;
  toolMode: ToolModeState;
  /** The fresh context: system prompt and the phase's own user message(s). */
  messages: readonly ChatMessage[];
  tools: readonly Tool[];
  /** More tools (the user's MCP servers), asked for before each turn: what it offers this phase is offered, and callable, that turn. */
  extraTools?: ToolSource;
  /** Model calls allowed, the last one included. */
  maxTurns: number;
  limits: LoopLimits;
  /** At the turn cap, ask once more without tools for a final answer instead of failing. */
  finalAnswerAtCap: boolean;
  /** Streams the model's text (the summary only); internal phases leave it out. */
  onTextDelta?: (text: string) => void;
  /** The tool context; its signal is replaced by the loop's own, which also fires on timeout. */
  toolContext: Omit<ToolContext, 'signal'>;
  /** Continues the tool-log ids of earlier phases and runs. */
  toolLog: Pick<ToolLog, 'append'>;
  /** Approval and checkpoint before a tool changes anything; every call runs when absent. */
  guard?: ToolGuard;
  emit: (event: UnsequencedEvent) => void;
  /** Hands out run-wide unique ids for tool-started / tool-finished. */
  nextCallId: () => string;
  /** The model's window in tokens: every request is kept within its budget (engine/context/). */
  contextWindow: number;
  /**
   * The server refused a request as too long: the window it named, or a clear cut below this one. Later
   * loops of the run start from it, so each phase and item does not meet the same refusal again.
   */
  onWindowRefused?: (contextWindow: number) => void;
  /**
   * The server counted far fewer prompt tokens than were sent (promptWasCut): it dropped the start of the
   * prompt to fit a smaller window than the one assumed, as Ollama does at its default context length.
   */
  onPromptCut?: (cut: { sentTokens: number; countedTokens: number }) => void;
  /**
   * The loop's first request, as fitted: its fixed part alone (system prompt, tools, the phase's own
   * messages), which every later request carries too, and the budget each request is fitted to.
   */
  onFixedPart?: (size: { tokens: number; budget: number }) => void;
  signal: AbortSignal;
}

/** One turn's usage as the client normalised it (LlmUsage), and what it cost. */
export type TurnUsage = Omit<LlmUsage, 'estimated'>;

export type LoopFailure = 'cancelled' | 'timeout' | 'turn-cap' | 'tool-errors' | 'model';

export type AgentLoopResult = (
  | { ok: true; text: string }
  | { ok: false; failure: LoopFailure; error: string; llmError?: LlmError }
) & { turns: number; toolCalls: number; usage: TurnUsage[] };
