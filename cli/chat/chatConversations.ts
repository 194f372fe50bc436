import type { StartedRun } from '../../engine/contract/index.js';
import type { Workbench } from '../../engine/index.js';
import { CliError } from '../commands/cliError.js';
import { conversationsTable } from '../terminal/conversationsFormat.js';
import { visibleLine } from '../terminal/visibleText.js';

/**
 * The conversation a chat session talks in — every request and command names it — and the slash commands
 * about the folder's conversations: /new, /conversations, /switch, /rename. Before the folder has any,
 * none is named: the first request starts one, and the session follows it from then on.
 */
export class ChatConversations {
  private current: string | undefined;

  constructor(
    private readonly workbench: Workbench,
    /** The conversation the session opens on (the folder's most recent); null when the folder has none yet. */
    opened: string | null,
  ) {
    this.current = opened ?? undefined;
  }

  /** The payload field naming the session's conversation. */
  scope(): { conversationId?: string } {
    return this.current === undefined ? {} : { conversationId: this.current };
  }

  /** `--conversation` for the commands that take the flag (printDiff). */
  flag(): { conversation?: string } {
    return this.current === undefined ? {} : { conversation: this.current };
  }

  /** A run started: its conversation is the session's (the first request of a folder starts one). */
  follow(started: StartedRun): StartedRun {
    this.current = started.conversationId;
    return started;
  }

  /** /new: starts an empty conversation and talks in it. */
  async create(): Promise<string> {
    const created = await this.workbench.request('conversations:new');
    this.current = created.id;
    return `New conversation ${visibleLine(created.id)}: the next request starts its history (/conversations lists them all).`;
  }

  /** /conversations: the folder's conversations as `conversations` lists them, the session's marked `*`. */
  async list(): Promise<string> {
    const { conversations } = await this.workbench.request('conversations:list');
    if (conversations.length === 0) return `No conversations yet in ${visibleLine(this.workbench.folder)}: the first request starts one.`;
    return conversationsTable(conversations, this.current === undefined ? {} : { current: this.current });
  }

  /** /switch <id>: talks in that conversation from now on (the engine looks the id up; an unknown one is refused). */
  async switchTo(id: string): Promise<string> {
    if (id === '') throw new CliError('/switch needs the id of a conversation: /conversations lists them. Nothing was switched.');
    const { conversationId, conversation } = await this.workbench.request('workbench:snapshot', { conversationId: id });
    this.current = conversationId ?? id;
    const title = (await this.workbench.request('conversations:list')).conversations.find((listed) => listed.id === this.current)?.title ?? '';
    const requests = conversation.filter((message) => message.role === 'user').length;
    return `Switched to ${visibleLine(this.current)} "${visibleLine(title)}" (${requests} ${requests === 1 ? 'request' : 'requests'}): /history shows it.`;
  }

  /** /rename <title>: gives the session's conversation that title. */
  async rename(title: string): Promise<string> {
    if (title === '') throw new CliError('/rename needs the new title: /rename <title>. Nothing was renamed.');
    if (this.current === undefined) throw new CliError('There is no conversation to rename yet: send a request (or /new) first. Nothing was renamed.');
    const renamed = await this.workbench.request('conversations:rename', { conversationId: this.current, title });
    return `Renamed ${visibleLine(renamed.id)} to "${visibleLine(renamed.title)}".`;
  }
}
