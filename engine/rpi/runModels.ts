import type { LearnedContextWindow, Phase, UnsequencedEvent } from '../contract/index.js';
import type { LlmClient } from '../llm/llmTypes.js';
import { fixedPartWarning, type FixedPartSize } from './fixedPartWarning.js';

export interface PhaseModel {
  llm: LlmClient;
  contextWindow: number;
  /** Where the window was learned, announced (`context-window`) when a phase starts on this model after one on another. */
  learned?: Pick<LearnedContextWindow, 'source' | 'detail'>;
}

export interface RunModelsDeps {
  runId: string;
  /** The default model and its window; a phase without its own model uses it. */
  llm: LlmClient;
  contextWindow: number;
  phaseModels?: Partial<Record<Phase, PhaseModel>>;
  emit: (event: UnsequencedEvent) => void;
}

/**
 * A run's models and the window each fits its requests to: smaller once its server refused a request as
 * too long, for the rest of the run. Says when a phase starts on another model's window, and warns once
 * a run when a window is too small for the work (the server cut a prompt; the fixed part takes over half).
 */
export class RunModels {
  private readonly windows = new Map<LlmClient, number>();
  /** The model whose window was announced last; the run's first is announced before it starts. */
  private announcedModel: LlmClient;
  private toldPromptCut = false;
  private toldFixedPart = false;

  constructor(private readonly deps: RunModelsDeps) {
    this.announcedModel = this.modelOf('research').llm;
  }

  /** The phase's own model, else the default. */
  modelOf(phase: Phase): PhaseModel {
    return this.deps.phaseModels?.[phase] ?? { llm: this.deps.llm, contextWindow: this.deps.contextWindow };
  }

  /** The window of the phase's model as the run knows it now. */
  windowOf(phase: Phase): number {
    const { llm, contextWindow } = this.modelOf(phase);
    return this.windows.get(llm) ?? contextWindow;
  }

  /** The phase's server refused a request as too long for `tokens`: its model's window shrinks for the rest of the run. */
  shrink(phase: Phase, tokens: number): void {
    this.windows.set(this.modelOf(phase).llm, Math.min(this.windowOf(phase), tokens));
  }

  /** A phase on another model than the one before it fits its requests to that model's window: the run view says which. */
  announceWindow(phase: Phase): void {
    const { llm, learned } = this.modelOf(phase);
    if (llm === this.announcedModel || !learned) return;
    this.announcedModel = llm;
    this.deps.emit({ type: 'context-window', runId: this.deps.runId, tokens: this.windowOf(phase), ...learned, model: llm.model });
  }

  /** Once a run: the server cut a prompt to a window smaller than assumed, so it works from part of what it was given. */
  tellPromptCut(phase: Phase, { sentTokens, countedTokens }: { sentTokens: number; countedTokens: number }): void {
    if (this.toldPromptCut) return;
    this.toldPromptCut = true;
    const count = (tokens: number) => tokens.toLocaleString('en-US');
    this.deps.emit({
      type: 'warning',
      runId: this.deps.runId,
      message:
        `The model server counted only ${count(countedTokens)} of the about ${count(sentTokens)} prompt tokens sent: it cut the start of the prompt to fit ` +
        `a smaller context window than the ${count(this.windowOf(phase))} tokens assumed, so the model works without part of its instructions. ` +
        `Set the context window in Settings to ${count(countedTokens)}, or raise the server's context length (Ollama: OLLAMA_CONTEXT_LENGTH, or PARAMETER num_ctx in a Modelfile).`,
    });
  }

  /** Once a run: the fixed part of a phase's requests leaves little room for the work in this window. */
  tellFixedPart(size: Omit<FixedPartSize, 'contextWindow'>): void {
    if (this.toldFixedPart) return;
    const message = fixedPartWarning({ ...size, contextWindow: this.windowOf(size.phase) });
    if (message === null) return;
    this.toldFixedPart = true;
    this.deps.emit({ type: 'warning', runId: this.deps.runId, message });
  }
}
