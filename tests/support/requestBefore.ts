import { utimes } from 'node:fs/promises';
import path from 'node:path';
import { CheckpointStore } from '../../engine/checkpoints/checkpointStore.js';
import { ConversationStore } from '../../engine/store/conversation.js';
import { openStateFolder } from '../../engine/workbench/stateFolder.js';
import { writeTree } from './tempFolder.js';

/**
 * A folder holding `files`, written an hour ago (as a project's files are, so no file is "racy"), with
 * the checkpoint a run takes before request `messageId` and that request in the conversation: what the
 * request then changes is its changes.
 */
export async function folderBeforeRequest(root: string, files: Record<string, string>, messageId = 'm-request'): Promise<{ messageId: string }> {
  await writeTree(root, files);
  const anHourAgo = new Date(Date.now() - 3_600_000);
  await Promise.all(Object.keys(files).map((file) => utimes(path.join(root, file), anHourAgo, anHourAgo)));
  const state = await openStateFolder(root);
  try {
    const checkpoints = await CheckpointStore.open(root, state.dir);
    await checkpoints.snapshot({ reason: 'run', messageId });
    await new ConversationStore(state.dir).append({ id: messageId, role: 'user', text: 'Change the files', ts: Date.now() });
  } finally {
    await state.close();
  }
  return { messageId };
}
