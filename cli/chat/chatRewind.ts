import type { Message, UndoChoices, UndoFile } from '../../engine/contract/index.js';
import type { Workbench } from '../../engine/index.js';
import { CliError } from '../commands/cliError.js';
import { chooseForConflicts, undoneFolderText } from '../commands/undoCommand.js';
import { LiveLine } from '../terminal/liveLine.js';
import { shownStderr, shownStdout } from '../terminal/shownStream.js';
import { visibleLine } from '../terminal/visibleText.js';
import { describeRequest, latestRequest, requestOf } from './chatHistory.js';
import type { ChatTerminal } from './chatTerminal.js';

type RestoreChange = UndoFile;

export interface ChatRewindDeps {
  workbench: Workbench;
  /** Null without a terminal: then nothing is asked, and files another conversation changed since are kept. */
  terminal: ChatTerminal | null;
  /** The conversation the session is in. */
  scope: () => { conversationId?: string };
  note: (text: string) => void;
}

/** `/undo` and `/regenerate` in a chat: which request, what it would put back, and the user's yes and choices. */
export class ChatRewind {
  constructor(private readonly deps: ChatRewindDeps) {}

  /** The request to undo or regenerate (the one named, or the latest) and the choices for its conflicts; null when it is not to go ahead. */
  async chosen(id: string, action: 'undo' | 'regenerate'): Promise<{ request: Message; choices: UndoChoices } | null> {
    const request = await this.target(id, action);
    const choices = request && (await this.confirmRewind(action, request));
    return request && choices ? { request, choices } : null;
  }

  /** The request a command is about: the one named, or the latest; null (said why) when there is none. */
  private async target(id: string, verb: string): Promise<Message | null> {
    const { conversation } = await this.deps.workbench.request('workbench:snapshot', this.deps.scope());
    if (id === '') {
      const latest = latestRequest(conversation);
      if (latest === null) this.deps.note(`Nothing to ${verb}: there is no request yet.`);
      return latest;
    }
    const request = requestOf(conversation, id);
    if (request === null) throw new CliError(`There is no message ${visibleLine(id)} in this folder's conversation: /history lists them.`);
    return request;
  }

  /** `/undo [id]`: the request (the latest by default) undone after it is confirmed, and what that did. */
  async undo(id: string): Promise<void> {
    const chosen = await this.chosen(id, 'undo');
    if (!chosen) return;
    const { request, choices } = chosen;
    this.deps.note(`Undoing ${describeRequest(request)}…`);
    shownStdout.text(undoneFolderText(this.deps.workbench, await this.deps.workbench.request('session:undo', { messageId: request.id, choices, ...this.deps.scope() })));
  }

  /**
   * On a terminal, an undo or a regenerate is confirmed first (y/N), naming the request, the files it puts
   * back and the later requests it cuts, then asks about each file another conversation changed since;
   * without one (a script) it runs as written, keeping those files as they are (and saying which).
   * Null when it is not to go ahead.
   */
  private async confirmRewind(action: 'undo' | 'regenerate', request: Message): Promise<UndoChoices | null> {
    const changes = await this.deps.workbench.request('session:undo-preview', { messageId: request.id, ...this.deps.scope() });
    const interrupted = new AbortController();
    const live = new LiveLine(shownStderr, false);
    const asking = { print: this.deps.note, prompter: this.deps.terminal?.prompter(live, () => interrupted.abort()) ?? null, signal: interrupted.signal };
    if (this.deps.terminal) {
      const { conversation } = await this.deps.workbench.request('workbench:snapshot', this.deps.scope());
      this.deps.note(rewindPreview(action, request, changes, conversation));
      if (!(await this.deps.terminal.confirm(`${action === 'undo' ? 'Undo' : 'Regenerate'} it? [y/N] `))) return this.notRewound(action);
    }
    return (await chooseForConflicts(changes, asking)) ?? this.notRewound(action);
  }

  private notRewound(action: 'undo' | 'regenerate'): null {
    this.deps.note(`Nothing was ${action === 'undo' ? 'undone' : 'regenerated'}: the files and the conversation are as they were.`);
    return null;
  }
}

/** Files named before an undo or a regenerate is confirmed; the others are counted. */
const shownChanges = 30;
const changeLabels: Record<RestoreChange['change'], string> = { restored: 'restored', removed: 'removed (created since)', recreated: 'recreated (deleted since)' };

/** What an undo or a regenerate of the request would do: the files it puts back, the later requests it cuts. */
function rewindPreview(action: 'undo' | 'regenerate', request: Message, changes: readonly RestoreChange[], conversation: readonly Message[]): string {
  const later = conversation.slice(conversation.findIndex((message) => message.id === request.id) + 1).filter((message) => message.role === 'user').length;
  const cut = later === 0 ? '' : ` (and the ${later === 1 ? 'request' : `${later} requests`} after it)`;
  const head =
    action === 'undo'
      ? `Undo ${describeRequest(request)}: the conversation is cut before it${cut}, and the files go back to before it.`
      : `Regenerate ${describeRequest(request)}: the conversation is cut before it${cut}, the files go back to before it, then it is sent again.`;
  if (changes.length === 0) return `${head}\nNo files change.`;
  const files = changes.slice(0, shownChanges).map((change) => `  ${visibleLine(change.path)}${change.kind === 'folder' ? '/' : ''}  ${changeLabels[change.change]}`);
  const more = changes.length > shownChanges ? [`  … and ${changes.length - shownChanges} more (/diff ${visibleLine(request.id)} shows what the request changed)`] : [];
  return [head, `Files that change (${changes.length}):`, ...files, ...more].join('\n');
}
