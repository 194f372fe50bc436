import type { EventOf, RunUsage, StepUsage, UnsequencedEvent, UsageItem } from '../contract/index.js';
import { AppendLog } from '../store/appendLog.js';
import { StateFileError } from '../store/stateFile.js';
import { addLine, currentUsageFile, currentUsageLabel, inRunOrder, stepKey, stepsOf, usageFileMaxBytes, usageLineSchema, type UsageLine } from './runUsage.js';

export interface UsageRecorderOptions {
  stateDir: string;
  runId: string;
  /** The request the run answers. */
  messageId: string;
  /** Where warnings and `run-usage` go. */
  emit: (event: UnsequencedEvent) => void;
  now?: () => number;
}

/**
 * Keeps a run's usage with the run: each model call's `usage` event becomes a line of rpi/usage.jsonl under
 * the step it belongs to (its phase, and in Implement the item the latest `implement-progress` announced),
 * and the request's sums per step go out as a `run-usage` event. Opened for every run of a request, it
 * starts from what the earlier runs appended, so the steps of a resumed request add up.
 */
export class UsageRecorder {
  private readonly steps = new Map<string, StepUsage>();
  private item: UsageItem | null = null;
  private writes: Promise<void> = Promise.resolve();
  private toldWriteFailure = false;

  private constructor(
    private readonly options: UsageRecorderOptions,
    /** Null when the file could not be read safely: the figures are then kept in memory only. */
    private readonly log: AppendLog<UsageLine> | null,
  ) {}

  /** Reads what earlier runs of the request kept (a corrupt line is a warning) and tells it when there is any. */
  static async open(options: UsageRecorderOptions): Promise<UsageRecorder> {
    const warn = (message: string) => options.emit({ type: 'warning', runId: options.runId, message });
    // Kept open while the run counts (a line per model call); rpi/ is cleared only between runs.
    const log = new AppendLog({ file: currentUsageFile(options.stateDir), schema: usageLineSchema, label: currentUsageLabel(options.stateDir), onCut: warn, maxBytes: usageFileMaxBytes, keepOpen: true });
    try {
      const { records, warnings } = await log.load();
      warnings.forEach(warn);
      const recorder = new UsageRecorder(options, log);
      for (const step of stepsOf(records)) recorder.steps.set(stepKey(step), step);
      if (recorder.steps.size > 0) recorder.tell();
      return recorder;
    } catch (error) {
      if (!(error instanceof StateFileError)) throw error;
      warn(`${error.message} This run's usage is shown but not kept.`);
      return new UsageRecorder(options, null);
    }
  }

  /** Takes every event of the run; counts its model calls. */
  observe(event: UnsequencedEvent): void {
    if (event.type === 'implement-progress') this.item = { index: event.current - 1, label: event.label };
    if (event.type === 'usage') this.count(event);
  }

  /** The request's usage per step so far. */
  current(): RunUsage {
    return { messageId: this.options.messageId, steps: [...this.steps.values()].sort(inRunOrder) };
  }

  /** Settles when every line counted so far is on disk (or failed with a warning), and lets go of the file. */
  async close(): Promise<void> {
    await this.writes;
    await this.log?.close();
  }

  private count(event: Omit<EventOf<'usage'>, 'seq'>): void {
    const line: UsageLine = {
      runId: this.options.runId,
      ts: (this.options.now ?? Date.now)(),
      phase: event.phase,
      ...(event.phase === 'implement' && this.item ? { item: this.item } : {}),
      promptTokens: event.promptTokens,
      cachedTokens: event.cachedTokens ?? 0,
      cacheWriteTokens: event.cacheWriteTokens ?? 0,
      completionTokens: event.completionTokens,
      reasoningTokens: event.reasoningTokens ?? 0,
      costUsd: event.costUsd ?? null,
      ...(event.estimated ? { estimated: true } : {}),
      ...(event.model ? { model: event.model } : {}),
    };
    const key = stepKey(line);
    this.steps.set(key, addLine(this.steps.get(key), line));
    this.append(line);
    this.tell();
  }

  private append(line: UsageLine): void {
    const { log } = this;
    if (!log) return;
    this.writes = this.writes.then(() => log.append(line)).catch((error: unknown) => {
      if (this.toldWriteFailure) return;
      this.toldWriteFailure = true;
      const reason = error instanceof Error ? error.message : String(error);
      this.options.emit({ type: 'warning', runId: this.options.runId, message: `The run's usage could not be saved in ${currentUsageLabel(this.options.stateDir)} (${reason}); the figures shown are not kept.` });
    });
  }

  private tell(): void {
    const { messageId, steps } = this.current();
    this.options.emit({ type: 'run-usage', runId: this.options.runId, messageId, steps });
  }
}
