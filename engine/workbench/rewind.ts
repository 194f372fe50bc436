import type { Message, UndoChoices, UndoFile, UndoResult, UnsequencedEvent } from '../contract/index.js';
import type { ChangesService } from '../changes/changesService.js';
import type { CheckpointStore } from '../checkpoints/checkpointStore.js';
import { removeKeptRuns, runsDirName } from '../rpi/runArchive.js';
import { clearRpiState } from '../rpi/rpiState.js';
import { conversationFile, type ConversationStore } from '../store/conversation.js';
import { readStateText, StateFileError } from '../store/stateFile.js';
import { RunRefusedError } from '../contract/runRefusedError.js';
import { putBackUndone } from './undoFiles.js';
import { planUndo, type UndoPlanDeps } from './undoPlan.js';

export interface RewindDeps extends UndoPlanDeps {
  /** The project folder. */
  root: string;
  /** The conversation undone in. */
  conversationId: string;
  changes: UndoPlanDeps['changes'] & Pick<ChangesService, 'revert'>;
  /** Every message of the folder, oldest first: the request left latest keeps the undo's checkpoint. */
  allMessages: () => Promise<Message[]>;
  stateDir: string;
  /** Where stateDir is, for messages (`.workbench/conversations/<id>`). */
  shownAs: string;
  conversation: ConversationStore;
  checkpoints: CheckpointStore;
  emit: (event: UnsequencedEvent) => void;
  /** Forgets the recorded events of the run shown, just before the changed history is announced. */
  forgetRun: () => void;
  /** Every conversation's history file as written: a checkpoint of a request named in any stays. */
  histories: () => Promise<string>;
}

interface Target {
  /** The user message the folder and the history go back to before. */
  message: Message;
  checkpointId: string;
  /** The ids of the messages undone: the target and every message after it. */
  cut: ReadonlySet<string>;
  /** The requests undone, the target first. */
  undone: Message[];
}

/** What undoing to before this message would put back (see planUndo), without doing it. */
export async function previewRewind(deps: RewindDeps, messageId: string): Promise<UndoFile[]> {
  return planUndo(deps, planTarget(deps, await targetOf(deps, messageId)));
}

/**
 * Puts the files the conversation's requests changed from this user message on (or, for a summary, from
 * the request it answers) back as they were before it — a file another conversation changed since as the
 * caller chose (see putBackUndone) — cuts the conversation there and forgets the run's research, plan and
 * recorded events, and the kept runs (runs/) of the requests cut.
 * Files first: if the engine dies half-way, the message is still there and undo can simply be asked again.
 * Once the conversation is cut the undo completes: a kept run that cannot be removed is only a warning.
 */
export async function rewind(deps: RewindDeps, messageId: string, choices: UndoChoices = {}): Promise<{ message: Message; undone: UndoResult }> {
  const target = await targetOf(deps, messageId);
  const planned = await planUndo(deps, planTarget(deps, target), { forUndo: true });
  const keptBy = (await deps.allMessages()).findLast((message) => message.role === 'user' && !target.cut.has(message.id))?.id ?? null;
  const undone = await putBackUndone({ root: deps.root, changes: deps.changes, requestId: target.message.id, planned, choices, keptBy });
  await deps.conversation.truncateAt(target.message.id);
  await clearRpiState(deps.stateDir);
  const { messages } = await deps.conversation.load();
  const written = await writtenConversation(deps);
  await removeCutRuns(deps, target.cut, written);
  deps.forgetRun();
  deps.emit({ type: 'conversation-reset', runId: null, messages });
  // A checkpoint stays while its request is in a conversation of the folder, read or not: a line a history
  // skips now (torn, or from another version) is still the user's, and so is the way back to before it.
  const kept = new Set(messages.map((message) => message.id));
  const histories = written === null ? null : await deps.histories().catch(() => null);
  if (histories !== null) await deps.checkpoints.collect((info) => kept.has(info.tag.messageId) || histories.includes(info.tag.messageId));
  return { message: target.message, undone };
}

function planTarget(deps: RewindDeps, target: Target) {
  return { conversationId: deps.conversationId, checkpointId: target.checkpointId, undone: target.undone };
}

/** The conversation file's text as it is now, or null (with a warning) when it cannot be read. */
async function writtenConversation(deps: RewindDeps): Promise<string | null> {
  try {
    return (await readStateText(conversationFile(deps.stateDir))) ?? '';
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    deps.emit({ type: 'warning', runId: null, message: `${reason} The plan history and checkpoints of the requests undone were not cleaned up.` });
    return null;
  }
}

/**
 * Removes the kept runs of the requests cut: those of the messages from the undo point on, and those of
 * no message at all (left by an undo that stopped before removing them). A kept run whose id is still
 * written anywhere in the conversation file stays, even on a line that cannot be read now: a line the
 * history skips is still the user's, and so is its plan. Whatever cannot be removed is a warning, never
 * an error: the folder and the conversation have already gone back.
 */
async function removeCutRuns(deps: RewindDeps, cut: ReadonlySet<string>, written: string | null): Promise<void> {
  if (written === null) return;
  const warn = (message: string) => deps.emit({ type: 'warning', runId: null, message });
  try {
    const left = await removeKeptRuns(deps.stateDir, (name) => cut.has(name) || !written.includes(name));
    for (const { name, reason } of left) {
      warn(`The plan history of an undone request was left in ${deps.shownAs}/${runsDirName}/${name}, which could not be removed (${reason}); it is no longer shown, and can be deleted by hand.`);
    }
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    if (error instanceof StateFileError) warn(`${reason} The plan history of the requests undone was not removed.`);
    else warn(`The plan history of the requests undone was left in ${deps.shownAs}/${runsDirName}/, which could not be cleaned up (${reason.replace(/\.$/, '')}); it is no longer shown.`);
  }
}

async function targetOf(deps: RewindDeps, messageId: string): Promise<Target> {
  const { messages } = await deps.conversation.load();
  const index = messages.findIndex((message) => message.id === messageId);
  if (index < 0) throw new RunRefusedError(`There is no message "${messageId}" in this folder's conversation.`);
  const message = messages.slice(0, index + 1).findLast((candidate) => candidate.role === 'user');
  if (!message) throw new RunRefusedError('This message answers no request, so there is nothing to go back to.');
  const checkpoint = (await deps.checkpoints.list()).find((info) => info.tag.reason === 'run' && info.tag.messageId === message.id);
  if (!checkpoint) throw new RunRefusedError('There is no checkpoint from before this message, so its files cannot be restored.');
  const after = messages.slice(messages.indexOf(message));
  return { message, checkpointId: checkpoint.id, cut: new Set(after.map((candidate) => candidate.id)), undone: after.filter((candidate) => candidate.role === 'user') };
}
