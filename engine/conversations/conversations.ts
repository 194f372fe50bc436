import { lstat, mkdir, rename } from 'node:fs/promises';
import path from 'node:path';
import type { ConversationSummary, Message } from '../contract/index.js';
import { RunRefusedError } from '../contract/runRefusedError.js';
import { ConversationStore, conversationFile } from '../store/conversation.js';
import { readStateText } from '../store/stateFile.js';
import { HeldFolder } from '../workspace/heldFolder.js';
import { isConversationId, newConversationId } from './conversationId.js';
import { readMeta, writeMeta } from './conversationMeta.js';
import { oneLineTitle, untitled } from './conversationTitle.js';
import { conversationsDirName, stateDirName, finishMove, hasLegacyEntries, legacyConversation, moveLegacyLayout, sweepClutter, type MoveStep } from './legacyLayout.js';

/** One conversation, found on disk: its history, and the folder its rpi/ and runs/ are in. */
export interface ConversationScope {
  id: string;
  /** Its own folder; `.workbench/` itself for the one conversation of a folder not moved yet. */
  dir: string;
  /** Where that folder is, for messages: `.workbench/conversations/<id>`, or `.workbench`. */
  shownAs: string;
  store: ConversationStore;
}

/** A conversation as listed, without whether it runs (the run gate knows that). */
export type ListedConversation = Omit<ConversationSummary, 'running'>;

export interface ConversationsOptions {
  /** The held `.workbench/` path. */
  stateDir: string;
  /** Hears of a torn line cut off before an append to a history. */
  onCut?: (message: string) => void;
  /** Hears, once, that the folder's single-conversation layout was moved. */
  onMoved?: (message: string) => void;
  /** Each point of a move, for the crash tests. */
  onMoveStep?: (step: MoveStep) => void;
}

/**
 * The conversations of one folder, each with its own history, rpi/ and runs/ under
 * `.workbench/conversations/<id>/` (the checkpoint store and the tool log stay shared). Reading never
 * changes the folder: one in the single-conversation layout reads as its one conversation, and is moved
 * by the first write (forWriting, create, rename, remove). An id from a request is looked up among the
 * folders found, never made into a path.
 */
export class Conversations {
  private readonly stores = new Map<string, ConversationStore>();
  private readonly root: string;

  constructor(private readonly options: ConversationsOptions) {
    this.root = path.join(options.stateDir, conversationsDirName);
  }

  /** Every conversation, most recent first. */
  async list(): Promise<ListedConversation[]> {
    const scopes = await this.scopes();
    const listed = await Promise.all(scopes.map((scope) => this.describe(scope)));
    return listed.sort((a, b) => b.updated - a.updated || b.created - a.created);
  }

  /** The conversation `id` (refused when the folder has none by that id), or the most recent; null when the folder has none. */
  async find(id?: string): Promise<ConversationScope | null> {
    const scopes = await this.scopes();
    if (id !== undefined) return this.lookUp(scopes, id);
    const [latest] = await this.list();
    return scopes.find((scope) => scope.id === latest?.id) ?? null;
  }

  /** As find, for a change: moves the old layout first, and starts a conversation when the folder has none. */
  async forWriting(id?: string): Promise<ConversationScope> {
    await this.ensureMoved();
    return (await this.find(id)) ?? this.scopeOf((await this.create()).id);
  }

  /** Starts an empty conversation. */
  async create(): Promise<ListedConversation> {
    await this.ensureMoved();
    await mkdir(this.root, { recursive: true, mode: 0o700 });
    const id = newConversationId();
    const dir = path.join(this.root, id);
    await mkdir(dir, { mode: 0o700 });
    await writeMeta(dir, { id, created: Date.now(), title: null });
    return this.describe(this.scopeOf(id));
  }

  /** Gives the conversation the user's title (one line); an empty one is refused. */
  async rename(id: string, title: string): Promise<ListedConversation> {
    const shown = oneLineTitle(title);
    if (!shown) throw new RunRefusedError('The title is empty: type a title for the conversation.');
    const scope = await this.forWriting(id);
    const { meta } = await readMeta(scope.dir);
    await writeMeta(scope.dir, { id, created: meta?.created ?? (await this.createdOf(scope)), title: shown });
    return this.describe(scope);
  }

  /**
   * Removes the conversation's folder (its history, rpi/ and kept plans), never following a link in it:
   * renamed out of the list in one step first, so a crash leaves it either listed whole or gone.
   */
  async remove(id: string): Promise<void> {
    const scope = await this.forWriting(id);
    const held = await HeldFolder.open(this.root);
    try {
      const doomed = `.deleting-${scope.id}`;
      await held.lstat(scope.id).then((stats) => {
        if (!stats?.isDirectory()) throw new RunRefusedError(`The conversation "${scope.id}" is not a plain folder in .workbench/; it was left as it is.`);
      });
      await rename(held.entry(scope.id), held.entry(doomed));
      this.stores.delete(scope.dir);
      await held.removeEntry(doomed);
    } finally {
      await held.close();
    }
  }

  /** Every conversation's messages, oldest first: the folder's requests in the order they were made. */
  async allMessages(): Promise<Message[]> {
    const loaded = await Promise.all((await this.scopes()).map(async (scope) => (await scope.store.load()).messages));
    return loaded.flat().sort((a, b) => a.ts - b.ts);
  }

  /**
   * Every conversation's history file as written, lines the histories skip included: what a request id
   * must appear in for its checkpoints to stay. Throws when one cannot be read (then nothing is collected).
   */
  async writtenHistories(): Promise<string> {
    const texts = await Promise.all((await this.scopes()).map((scope) => readStateText(conversationFile(scope.dir))));
    return texts.map((text) => text ?? '').join('\n');
  }

  /** Moves a folder still in the single-conversation layout (or finishes a move a crash cut short). */
  async ensureMoved(): Promise<void> {
    if ((await this.committedIds()).length > 0) {
      await finishMove(this.options.stateDir, this.options.onMoveStep);
      await sweepClutter(this.root);
      return;
    }
    if (!(await hasLegacyEntries(this.options.stateDir))) return;
    const legacy = await this.legacyScope();
    const { messages } = await legacy.store.load();
    const first = await legacyConversation(messages[0] ?? null, this.options.stateDir);
    await moveLegacyLayout(this.options.stateDir, first, this.options.onMoveStep);
    this.stores.delete(legacy.dir);
    this.options.onMoved?.(
      `This folder's conversation was moved into .workbench/${conversationsDirName}/${first.id}/, where each conversation of the folder keeps its own history and plans.`,
    );
  }

  private async scopes(): Promise<ConversationScope[]> {
    const ids = await this.committedIds();
    if (ids.length > 0) return ids.map((id) => this.scopeOf(id));
    if (!(await hasLegacyEntries(this.options.stateDir))) return [];
    return [await this.legacyScope()];
  }

  private lookUp(scopes: readonly ConversationScope[], id: string): ConversationScope {
    const found = scopes.find((scope) => scope.id === id);
    if (found) return found;
    const shown = oneLineTitle(id).slice(0, 80);
    throw new RunRefusedError(`There is no conversation "${shown}" in this folder: list them with the conversations command (or the list beside the chat).`);
  }

  /** The conversation folders under conversations/: plain folders named as the engine names them. */
  private async committedIds(): Promise<string[]> {
    const held = await HeldFolder.open(this.root).catch((error: unknown) => {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    });
    if (!held) return [];
    try {
      const entries = await held.list();
      return entries.filter((entry) => entry.isDirectory() && isConversationId(entry.name)).map((entry) => entry.name);
    } finally {
      await held.close();
    }
  }

  private scopeOf(id: string): ConversationScope {
    return this.scoped(id, path.join(this.root, id), `${stateDirName}/${conversationsDirName}/${id}`);
  }

  private async legacyScope(): Promise<ConversationScope> {
    const store = this.storeAt(this.options.stateDir);
    const { messages } = await store.load();
    const { id } = await legacyConversation(messages[0] ?? null, this.options.stateDir);
    return this.scoped(id, this.options.stateDir, stateDirName);
  }

  private scoped(id: string, dir: string, shownAs: string): ConversationScope {
    return { id, dir, shownAs, store: this.storeAt(dir) };
  }

  private storeAt(dir: string): ConversationStore {
    let store = this.stores.get(dir);
    if (!store) {
      store = new ConversationStore(dir, this.options.onCut);
      this.stores.set(dir, store);
    }
    return store;
  }

  private async describe(scope: ConversationScope): Promise<ListedConversation> {
    const [{ messages }, { meta }] = await Promise.all([scope.store.load(), readMeta(scope.dir)]);
    const created = meta?.created ?? (await this.createdOf(scope, messages));
    const requests = messages.filter((message) => message.role === 'user');
    const named = meta?.title ?? (requests[0] ? oneLineTitle(requests[0].text) : '');
    return { id: scope.id, title: named || untitled, created, updated: Math.max(created, messages.at(-1)?.ts ?? 0), requests: requests.length };
  }

  private async createdOf(scope: ConversationScope, messages?: readonly Message[]): Promise<number> {
    const first = (messages ?? (await scope.store.load()).messages)[0];
    return Math.floor(first?.ts ?? (await lstat(scope.dir)).mtimeMs);
  }
}
