import { describeModelStatus, usageTotalOf, usageTotalText, type McpServerStatus, type PlanItem, type UsageTotal, type WorkbenchEvent } from '../../engine/contract/index.js';
import type { RunResult } from '../../engine/index.js';
import { formatCheckLine } from './checkLine.js';
import { formatContextLine } from './contextLine.js';
import type { LiveLine } from './liveLine.js';
import type { RunOutput } from './runOutput.js';
import { applyToProgress, initialProgress, type RunProgress } from './runProgress.js';
import type { ShownStream } from './shownStream.js';
import { formatStatusLine, stepLine } from './statusLine.js';
import { formatToolLine } from './toolLines.js';
import { formatElapsed, formatTokens } from './units.js';
import { visibleLine } from './visibleText.js';

export interface HumanOutputOptions {
  /** stderr: progress and tool lines, under a live status line when it is a terminal. */
  log: LiveLine;
  /** Where the summary goes: shown, like everything else, with its control characters visible (ShownStream). */
  stdout: ShownStream;
  /** Stream the summary as it is written (stdout is a terminal); otherwise print it whole at the end. */
  streamSummary: boolean;
  /** Prints the whole summary at the end instead of writing it as it is (chat formats its Markdown); never with streamSummary. */
  printSummary?: (summary: string) => void;
  startedAt: number;
  now?: () => number;
}

/**
 * The run for a person: a line per phase, step and tool call on stderr, a live status line under them on
 * a terminal, and the summary — and only the summary — on stdout, so `run … > summary.md` keeps it.
 * The summary is shown like all model text, its control characters visible, in a file as on a terminal
 * (a file is read with `cat` later); the exact text is in `--json` and `history --json`.
 */
export class HumanOutput implements RunOutput {
  private progress: RunProgress = initialProgress;
  /** The request's usage in all, as the latest `run-usage` told it (a resumed request's earlier runs included). */
  private usage: UsageTotal | null = null;
  private readonly calls = new Map<string, { tool: string; args: Record<string, unknown> }>();
  /** The current call was already said to be queued: keep-alives come many times a minute. */
  private toldQueued = false;
  private readonly reportedFailures = new Set<number>();
  private streamed = '';
  private readonly timer: NodeJS.Timeout;
  private readonly now: () => number;

  constructor(private readonly options: HumanOutputOptions) {
    this.now = options.now ?? Date.now;
    this.timer = setInterval(() => this.refresh(), 1000).unref();
    this.refresh();
  }

  handle(event: WorkbenchEvent): void {
    this.progress = applyToProgress(this.progress, event);
    if (event.type === 'run-usage') this.usage = usageTotalOf(event.steps);
    this.refresh();
    this.print(event);
  }

  finish(result: RunResult | null): void {
    clearInterval(this.timer);
    const { log, stdout } = this.options;
    log.stop();
    if (result === null) return;
    if (this.streamed !== '') {
      if (!this.streamed.endsWith('\n')) stdout.text('\n');
    } else if (result.status === 'done' && result.summary) {
      if (this.options.printSummary) this.options.printSummary(result.summary);
      else stdout.text(`${result.summary}\n`);
    }
    if (result.status === 'done') log.log(`Done in ${formatElapsed(this.now() - this.options.startedAt)} · ${this.spent()}`);
  }

  /** "58,200 tokens in (49,100 cached) · 3,900 out · $0.031", the request's usage in all. */
  private spent(): string {
    return this.usage ? usageTotalText(this.usage) : `${formatTokens(this.progress.tokens)}`;
  }

  private print(event: WorkbenchEvent): void {
    const { log } = this.options;
    switch (event.type) {
      case 'phase-started':
        if (event.phase !== 'implement') log.log(`▸ ${stepLine(this.progress)}`);
        return;
      case 'implement-progress':
        return log.log(`▸ ${stepLine(this.progress)}`);
      case 'tool-started':
        this.calls.set(event.callId, { tool: event.tool, args: event.args });
        return;
      case 'tool-finished': {
        const call = this.calls.get(event.callId) ?? { tool: 'tool', args: {} };
        this.calls.delete(event.callId);
        return log.log(formatToolLine({ ...call, ok: event.ok, durationMs: event.durationMs, summary: event.summary }));
      }
      case 'check-finished':
        return log.log(formatCheckLine(event));
      case 'plan-updated':
        return this.reportFailedStep(event.items);
      case 'approval-resolved':
        if (event.decision === 'expired') log.log('  The approval request expired unanswered, so the action was denied.');
        return;
      case 'question-answered':
        if (event.outcome === 'expired') log.log('  The question expired unanswered: the model goes on with its best assumption.');
        return;
      case 'warning':
        return log.log(`rpi-workbench: warning: ${event.message}`);
      case 'context-trimmed':
        return log.log(formatContextLine(event));
      case 'instructions-read':
        return log.log(`  project instructions: ${event.files.map(visibleLine).join(', ')}`);
      case 'context-items-read':
        return log.log(`  attached: ${event.items.map(visibleLine).join(', ')}`);
      case 'model-status':
        // Waiting, thinking and answering show on the status line; a retry and a queue are news worth a line.
        if (event.state === 'retrying' || (event.state === 'queued' && !this.toldQueued)) log.log(`  … ${describeModelStatus(event) ?? ''}`);
        this.toldQueued = event.state === 'queued';
        return;
      case 'summary-delta':
        return this.summaryText(event.text);
      case 'mcp-status':
        return this.mcpLine(event.status);
      default:
        return;
    }
  }

  /** A server that became ready, or failed to start (a crash is a warning event of its own). */
  private mcpLine(status: McpServerStatus): void {
    const { log } = this.options;
    const count = status.tools.length === 1 ? '1 tool' : `${status.tools.length} tools`;
    if (status.state === 'ready') log.log(`  MCP server ${visibleLine(status.name)}: ready, ${count}`);
    if (status.state === 'failed') log.log(`rpi-workbench: warning: MCP server ${visibleLine(status.name)}: ${visibleLine(status.error ?? 'it failed')}`);
  }

  /** The step just worked on, when it ended failed (earlier runs' failures are not this run's news). */
  private reportFailedStep(items: readonly PlanItem[]): void {
    const step = this.progress.step;
    const item = step ? items[step.current - 1] : undefined;
    if (item?.status !== 'failed' || this.reportedFailures.has(item.index)) return;
    this.reportedFailures.add(item.index);
    this.options.log.log(`  ✗ Step ${item.index + 1} failed: ${visibleLine(item.failure ?? 'no reason given')}`);
  }

  private summaryText(text: string): void {
    if (!this.options.streamSummary) return;
    if (this.streamed === '') this.options.log.stop();
    this.streamed += text;
    this.options.stdout.text(text);
  }

  private refresh(): void {
    const { log, startedAt } = this.options;
    log.set(formatStatusLine(this.progress, this.now() - startedAt, log.columns));
  }
}
