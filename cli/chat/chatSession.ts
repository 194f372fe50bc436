import path from 'node:path';
import { phaseNames, type StartedRun } from '../../engine/contract/index.js';
import { hostEnvironment, type Workbench } from '../../engine/index.js';
import type { Answerer } from '../commands/answerApprovals.js';
import { CliError, exitCodes, messageOf } from '../commands/cliError.js';
import { printDiff } from '../commands/diffCommand.js';
import { watchInterrupts, type Interrupts } from '../commands/interrupts.js';
import { openSessionWorkbench, prepareSession, type SessionSetup } from '../commands/openSession.js';
import { preflight } from '../commands/preflight.js';
import type { ResolvedSettings } from '../commands/resolveSettings.js';
import { runRequest } from '../commands/requestRun.js';
import { cancelledLine, resumeCommand } from '../commands/runEnding.js';
import type { RunFlags } from '../commands/runFlags.js';
import { checkReviewPlan, isInteractive } from '../commands/runSession.js';
import { wantsColour } from '../terminal/diffText.js';
import { LiveLine } from '../terminal/liveLine.js';
import { shownStderr, shownStdout } from '../terminal/shownStream.js';
import { visibleLine } from '../terminal/visibleText.js';
import { ChatConversations } from './chatConversations.js';
import { pipedInput, type ChatInput } from './chatInput.js';
import { describeRequest, historyText, recalledRequests } from './chatHistory.js';
import { ChatRewind } from './chatRewind.js';
import { ChatTerminal } from './chatTerminal.js';
import { modelsInUse, parseModelChoice, withModelChoice } from './modelChoice.js';
import { PendingContext } from './pendingContext.js';
import { chatHelp, parseChatLine, type ChatCommandName, type ChatLine } from './slashCommands.js';
import { printSummaryMarkdown } from './summaryMarkdown.js';

/** A line on stderr: notes, progress, errors. */
const note = (text: string) => shownStderr.text(`${text}\n`);

/**
 * `rpi-workbench chat <folder>`: the folder opened once (its lock held) for a session of requests and
 * slash commands, each request a whole run shown as `run` shows it. Resolves with the exit code: 0 for a
 * normal end; without a terminal, 1 when a request or a command failed. The folder is closed whatever happened.
 */
export async function chatSession(folder: string, flags: RunFlags): Promise<number> {
  if (flags.json) {
    throw new CliError('chat is for a person and has no --json: for one JSON event per line, use `rpi-workbench run <folder> "<request>" --json` per request.');
  }
  const interactive = isInteractive();
  checkReviewPlan(flags, interactive);
  const setup = await prepareSession(folder, flags);
  const model = { settings: setup.settings };
  const workbench = await openChecked(setup, () => model.settings);
  if (workbench === null) return exitCodes.failed;
  const opened = await workbench.request('workbench:snapshot');
  const conversations = new ChatConversations(workbench, opened.conversationId ?? null);
  const session = new ChatSession({ workbench, setup, model, flags, interactive, conversations, history: recalledRequests(opened.conversation) });
  try {
    return await session.run();
  } finally {
    session.dispose();
    await workbench.close();
  }
}

/** The model server checked, then the folder opened; null when Ctrl-C came first. */
async function openChecked(setup: SessionSetup, settings: () => ResolvedSettings): Promise<Workbench | null> {
  const interrupts = watchInterrupts({ first: () => note('Cancelling…'), again: () => process.exit(exitCodes.interrupted) });
  try {
    await preflight({ settings: settings(), warn: (message) => note(`rpi-workbench: warning: ${message}`), note, signal: interrupts.signal });
    if (interrupts.signal.aborted) {
      note('Cancelled before the session started.');
      return null;
    }
    return await openSessionWorkbench({ setup, llmSettings: () => settings().llm, log: note });
  } finally {
    interrupts.dispose();
  }
}

interface ChatSessionOptions {
  workbench: Workbench;
  setup: SessionSetup;
  /** The settings runs read as they start; /model replaces them. */
  model: { settings: ResolvedSettings };
  flags: RunFlags;
  interactive: boolean;
  /** The folder's earlier requests, newest first, for the arrow keys. */
  history: readonly string[];
  /** The conversation the session talks in, and the commands about the folder's conversations. */
  conversations: ChatConversations;
}

class ChatSession {
  private readonly workbench: Workbench;
  private readonly terminal: ChatTerminal | null;
  private readonly input: ChatInput;
  private readonly context: PendingContext;
  private readonly resume: string;
  private readonly rewind: ChatRewind;
  /** The running request's Ctrl-C, while there is one. */
  private interrupts: Interrupts | null = null;
  private failed = false;
  /** Warnings the workbench gave between runs, shown before the next prompt. */
  private readonly idleWarnings: string[] = [];
  private readonly stopWatching: () => void;

  constructor(private readonly options: ChatSessionOptions) {
    this.workbench = options.workbench;
    this.resume = resumeCommand(this.workbench.folder);
    this.context = new PendingContext(this.workbench.folder);
    this.terminal = options.interactive ? new ChatTerminal({ input: process.stdin, output: process.stderr, history: options.history }) : null;
    this.input = this.terminal ?? pipedInput(process.stdin);
    this.rewind = new ChatRewind({ workbench: this.workbench, terminal: this.terminal, scope: () => this.scope(), note });
    this.stopWatching = this.workbench.subscribe((event) => {
      if (this.interrupts === null && event.type === 'warning') this.idleWarnings.push(event.message);
    });
    process.on('SIGINT', this.onSignal);
    process.on('SIGTERM', this.onSignal);
  }

  async run(): Promise<number> {
    if (this.options.interactive) {
      note(`Chat on ${visibleLine(this.workbench.folder)} with ${visibleLine(this.settings.llm.model)}. Type a request, or /help; Ctrl-D ends the session.`);
    }
    for (;;) {
      for (const warning of this.idleWarnings.splice(0)) note(`rpi-workbench: warning: ${warning}`);
      const line = await this.input.read(this.prompt());
      if (line === null || !(await this.handle(parseChatLine(line)))) break;
    }
    return this.failed && !this.options.interactive ? exitCodes.failed : exitCodes.done;
  }

  /** Does what the line asks, an error reported in one line; false when the session ends. */
  private async handle(line: ChatLine): Promise<boolean> {
    switch (line.kind) {
      case 'empty':
        return true;
      case 'exit':
        return false;
      case 'invalid':
        this.fail(line.message);
        return true;
    }
    try {
      await (line.kind === 'request' ? this.send(line.text) : this.command(line.command, line.argument));
    } catch (error) {
      this.fail(`rpi-workbench: ${messageOf(error)}`);
    }
    return true;
  }

  dispose(): void {
    process.off('SIGINT', this.onSignal);
    process.off('SIGTERM', this.onSignal);
    this.stopWatching();
    this.input.end();
  }

  /** A signal with no run to cancel (SIGTERM, a SIGINT between lines) ends the session: the folder is closed and its lock released. */
  private readonly onSignal = () => {
    if (this.interrupts === null) this.input.end();
  };

  /** The payload field naming the session's conversation. */
  private scope(): { conversationId?: string } {
    return this.options.conversations.scope();
  }

  private get settings(): ResolvedSettings {
    return this.options.model.settings;
  }

  private prompt(): string {
    const attached = this.context.count === 0 ? '' : ` +${this.context.count} attached`;
    // readline writes the prompt itself, so the folder's and the model's names are made visible here.
    return `${visibleLine(path.basename(this.workbench.folder))} · ${visibleLine(this.settings.llm.model)}${attached} › `;
  }

  private fail(message: string): void {
    this.failed = true;
    note(message);
  }

  private async send(text: string): Promise<void> {
    const { items: context, putBack } = await this.context.take(text);
    let sent = false;
    try {
      await this.runOne(async (workbench) => {
        const started = await workbench.request('session:send', { prompt: text, ...(context.length > 0 ? { context } : {}), ...this.scope() });
        sent = true;
        return this.options.conversations.follow(started);
      });
    } finally {
      if (!sent) putBack();
    }
  }

  private async command(command: Exclude<ChatCommandName, 'exit'>, argument: string): Promise<void> {
    switch (command) {
      case 'help':
        return note(chatHelp());
      case 'history': {
        const { conversation, runs } = await this.workbench.request('workbench:snapshot', this.scope());
        return shownStdout.text(`${historyText(conversation, this.workbench.folder, runs)}\n`);
      }
      case 'undo':
        return this.rewind.undo(argument);
      case 'regenerate': {
        const chosen = await this.rewind.chosen(argument, 'regenerate');
        if (!chosen) return;
        note(`Regenerating ${describeRequest(chosen.request)}: its changes are undone, then it is sent again.`);
        return this.runOne((workbench) => workbench.request('session:regenerate', { messageId: chosen.request.id, choices: chosen.choices, ...this.scope() }));
      }
      case 'diff':
        return printDiff(this.workbench, argument === '' ? undefined : argument, this.options.conversations.flag());
      case 'resume':
        return this.runOne((workbench) => workbench.request('session:resume', this.scope()));
      case 'retry':
        return this.runOne((workbench) => workbench.request('session:retry-failed', this.scope()));
      case 'new':
        return note(await this.options.conversations.create());
      case 'conversations':
        return shownStdout.text(`${await this.options.conversations.list()}\n`);
      case 'switch':
        return note(await this.options.conversations.switchTo(argument));
      case 'rename':
        return note(await this.options.conversations.rename(argument));
      case 'context':
        return this.attach(argument);
      case 'model':
        return this.switchModel(argument);
    }
  }

  private attach(argument: string): Promise<void> | void {
    if (argument === '') return note(this.context.describe());
    if (argument === 'clear') return note(this.context.clear());
    return this.context.add(argument).then(note);
  }

  /** `/model`: the model of each phase; `/model <name>`: one model for every phase; `/model <phase> <name>`: that phase's. */
  private async switchModel(argument: string): Promise<void> {
    const { llm } = this.settings;
    if (argument === '') return note(modelsInUse(llm));
    const choice = parseModelChoice(argument);
    const settings = { ...this.settings, llm: withModelChoice(llm, choice) };
    await preflight({ settings, warn: (message) => note(`rpi-workbench: warning: ${message}`), note, signal: new AbortController().signal });
    this.options.model.settings = settings;
    note(choice.phase ? `${phaseNames[choice.phase]}: ${visibleLine(choice.model)} from now on in this session.` : `Model: ${visibleLine(choice.model)} for every phase from now on in this session.`);
  }

  /** One run, shown as `run` shows it; its summary as formatted Markdown when stdout is a terminal. */
  private async runOne(start: (workbench: Workbench) => Promise<StartedRun>): Promise<void> {
    const live = new LiveLine(shownStderr, shownStderr.isTTY);
    const interrupts = watchInterrupts({
      first: () => {
        live.log('Cancelling… (press Ctrl-C again to stop at once)');
        void this.workbench.request('session:cancel');
      },
      again: () => {
        shownStderr.text(`\nStopped at once. ${cancelledLine(this.resume)}\n`);
        process.exit(exitCodes.interrupted);
      },
    });
    this.interrupts = interrupts;
    try {
      const result = await runRequest({
        workbench: this.workbench,
        start,
        answerer: this.answerer(live, interrupts),
        interrupts,
        live,
        json: false,
        startedAt: Date.now(),
        resumeCommand: this.resume,
        resumeHint: '/resume',
        ...(shownStdout.isTTY ? { printSummary: printMarkdown } : {}),
      });
      if (result.status !== 'done') this.failed = true;
    } finally {
      live.stop();
      interrupts.dispose();
      this.interrupts = null;
    }
  }

  private answerer(live: LiveLine, interrupts: Interrupts): Answerer {
    if (this.options.flags.yes) return { kind: 'yes' };
    if (this.terminal) return { kind: 'ask', prompter: this.terminal.prompter(live, interrupts.interrupt) };
    return { kind: 'deny' };
  }
}

/** The summary's Markdown formatted for the terminal (its plain text when it is too big or too deeply nested to format), shown through the escape neutraliser. */
function printMarkdown(summary: string): void {
  printSummaryMarkdown(shownStdout, summary, wantsColour(shownStdout, hostEnvironment()));
}
