import path from 'node:path';
import type { EventOf, WorkbenchEvent } from '../engine/contract/index.js';
import type { SessionWatcher } from './windowSession.js';

/** An OS notification's text. */
export interface Notice {
  title: string;
  body: string;
}

/** A notification on screen; replaced notifications are closed. */
export interface ShownNotice {
  close(): void;
}

/** Shows a notice; clicking it runs `onClick`. Null when the OS cannot show notifications. */
export type Notify = (notice: Notice, onClick: () => void) => ShownNotice | null;

const maxBody = 140;

/**
 * What to tell the user about `event` when they are not looking: a finished run (with the first line
 * of its summary or error), an action waiting for approval, a question of the model, a plan waiting for review. Null for the
 * rest. `summary` is the run's summary message, when it wrote one.
 */
export function noticeFor(event: WorkbenchEvent, context: { folder: string; summary: string | null }): Notice | null {
  const name = path.basename(context.folder);
  switch (event.type) {
    case 'run-finished':
      return finishedNotice(event, name, context.summary);
    case 'approval-requested':
      return { title: `Approval needed in ${name}`, body: clip(`${actionOf(event, context.folder)} — ${event.reason}`) };
    case 'question-asked':
      return { title: `A question for you in ${name}`, body: clip(event.question) };
    case 'plan-ready': {
      const steps = `${event.items.length} ${event.items.length === 1 ? 'step' : 'steps'}`;
      const first = event.items[0]?.label;
      return { title: `Plan ready for review in ${name}`, body: clip(first ? `${steps}, starting with: ${first}` : steps) };
    }
    default:
      return null;
  }
}

function finishedNotice(event: EventOf<'run-finished'>, name: string, summary: string | null): Notice {
  switch (event.status) {
    case 'done':
      return { title: `Run finished in ${name}`, body: firstLine(summary) ?? 'The run is done.' };
    case 'failed':
      return { title: `Run failed in ${name}`, body: firstLine(event.error) ?? 'The run stopped on an error.' };
    case 'cancelled':
      return { title: `Run cancelled in ${name}`, body: firstLine(event.error) ?? 'The run was cancelled.' };
  }
}

/** "write_file src/a.ts" or "run_command npm test": the tool and what it touches, relative to the folder. */
function actionOf(event: EventOf<'approval-requested'>, folder: string): string {
  const command = event.args.command;
  const target = event.path ? path.relative(folder, event.path) || event.path : typeof command === 'string' ? command : '';
  return target ? `${event.tool} ${target}` : event.tool;
}

/** The first line with text, without Markdown's heading, list and emphasis marks, clipped for a notification. */
export function firstLine(text: string | null | undefined): string | null {
  const line = text
    ?.split('\n')
    .map((candidate) => candidate.replace(/^\s*(#{1,6}\s+|[-*+>]\s+|\d+\.\s+)*/, '').replace(/\*\*|__|`/g, '').trim())
    .find((candidate) => candidate !== '');
  return line ? clip(line) : null;
}

function clip(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= maxBody ? flat : `${flat.slice(0, maxBody - 1).trimEnd()}…`;
}

export interface RunNoticesOptions {
  /** Whether the user is looking at the window; no notice is shown then. */
  isFocused(): boolean;
  /** Brings the window to the front; a click on a notice does this. */
  focus(): void;
  notify: Notify;
}

/** Shows one window's notices while it is not focused; a newer notice replaces the older one. */
export class RunNotices implements SessionWatcher {
  private summary: string | null = null;
  private shown: ShownNotice | null = null;

  constructor(private readonly options: RunNoticesOptions) {}

  event(event: WorkbenchEvent, folder: string): void {
    if (event.type === 'run-started') this.summary = null;
    if (event.type === 'message-added' && event.runId !== null && event.message.role === 'assistant') this.summary = event.message.text;
    const notice = noticeFor(event, { folder, summary: this.summary });
    if (!notice || this.options.isFocused()) return;
    this.shown?.close();
    this.shown = this.options.notify(notice, () => this.options.focus());
  }

  released(): void {
    this.summary = null;
    this.shown?.close();
    this.shown = null;
  }
}
