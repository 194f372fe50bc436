import type { Message, UndoConflict, UndoFile } from '../contract/index.js';
import type { ChangesService } from '../changes/changesService.js';
import type { CheckpointInfo, CheckpointStore } from '../checkpoints/checkpointStore.js';
import type { Conversations } from '../conversations/conversations.js';
import { oneLineTitle } from '../conversations/conversationTitle.js';
import { RunRefusedError } from '../contract/runRefusedError.js';

/** Conflicting requests are named by their text cut to this many characters. */
const requestChars = 80;

export interface UndoPlanDeps {
  /** The folder's Changes view: what a request changed is what it counts. */
  changes: Pick<ChangesService, 'list'>;
  checkpoints: Pick<CheckpointStore, 'list' | 'changesSince'>;
  conversations: Pick<Conversations, 'list' | 'find'>;
}

/** What an undo goes back from. */
export interface UndoTarget {
  conversationId: string;
  /** The checkpoint taken before the first request undone. */
  checkpointId: string;
  /** The requests undone: the target and the later ones of its conversation. */
  undone: readonly Message[];
}

/**
 * The paths an undo puts back: those the undone requests changed (as the Changes view counts each request's
 * changes) that differ now from the checkpoint before the first of them, and the folders made since that
 * nothing will be left in. A file a later request of another conversation changed too names that
 * request (the latest one), for the user to keep or take. `forUndo`: the undo itself goes by this plan
 * (what cannot be reached is then said to be left as it was).
 */
export async function planUndo(deps: UndoPlanDeps, target: UndoTarget, { forUndo = false }: { forUndo?: boolean } = {}): Promise<UndoFile[]> {
  const touched = await filesChangedBy(deps, target.undone.map((message) => message.id));
  const conflicts = await laterChangesElsewhere(deps, target, touched);
  const differing = await deps.checkpoints.changesSince(target.checkpointId, { forUndo });
  const files: UndoFile[] = differing
    .filter((change) => change.kind !== 'folder' && touched.has(change.path))
    .map((change) => {
      const conflict = conflicts.get(change.path);
      return conflict ? { ...change, conflict } : { ...change };
    });
  // A folder made since the checkpoint goes when nothing will be left in it, which loses nothing: also one
  // an undo cut short already emptied (its files gone, so no longer counted), and a second undo finishes it.
  const planned = new Set(files.filter((file) => file.change === 'removed').map((file) => file.path));
  const keepsOthers = (folder: string) => differing.some((change) => change.kind !== 'folder' && change.path.startsWith(`${folder}/`) && !planned.has(change.path));
  const folders = differing.filter((change) => change.kind === 'folder' && change.change === 'removed' && !keepsOthers(change.path));
  return [...files, ...folders.map((folder) => ({ ...folder }))].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** Every path (both of a rename) the requests changed. */
async function filesChangedBy(deps: UndoPlanDeps, requestIds: readonly string[]): Promise<Set<string>> {
  const paths = new Set<string>();
  for (const id of requestIds) {
    for (const file of await changedBy(deps, id)) {
      paths.add(file.path);
      if (file.oldPath !== undefined) paths.add(file.oldPath);
    }
  }
  return paths;
}

/**
 * A request without a checkpoint of its own changed nothing the Changes view can tell apart: its changes
 * count in the range of the request before it.
 */
async function changedBy(deps: UndoPlanDeps, requestId: string) {
  try {
    return (await deps.changes.list(requestId, 'request')).files;
  } catch (error) {
    if (error instanceof RunRefusedError) return [];
    throw error;
  }
}

/** For each touched path another conversation's request changed after the undo's checkpoint: the latest such request. */
async function laterChangesElsewhere(deps: UndoPlanDeps, target: UndoTarget, touched: ReadonlySet<string>): Promise<Map<string, UndoConflict>> {
  const runCheckpoints = (await deps.checkpoints.list()).filter((info) => info.tag.reason === 'run');
  const later: { checkpoint: CheckpointInfo; conflict: UndoConflict }[] = [];
  for (const listed of await deps.conversations.list()) {
    if (listed.id === target.conversationId) continue;
    const scope = await deps.conversations.find(listed.id);
    const { messages } = (await scope?.store.load()) ?? { messages: [] };
    for (const message of messages) {
      if (message.role !== 'user') continue;
      const checkpoint = runCheckpoints.findLast((info) => info.tag.messageId === message.id);
      if (!checkpoint || checkpoint.id <= target.checkpointId) continue;
      const conflict = { conversationId: listed.id, conversationTitle: listed.title, messageId: message.id, request: shortened(message.text) };
      later.push({ checkpoint, conflict });
    }
  }
  later.sort((a, b) => (a.checkpoint.id < b.checkpoint.id ? -1 : 1));
  const conflicts = new Map<string, UndoConflict>();
  for (const { conflict } of later) {
    for (const file of await changedBy(deps, conflict.messageId)) {
      for (const changed of [file.path, file.oldPath]) if (changed !== undefined && touched.has(changed)) conflicts.set(changed, conflict);
    }
  }
  return conflicts;
}

function shortened(text: string): string {
  const line = oneLineTitle(text);
  return line.length > requestChars ? `${line.slice(0, requestChars - 1).trimEnd()}…` : line;
}
