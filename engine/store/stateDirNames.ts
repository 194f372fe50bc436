import path from 'node:path';

/** The folder in a project where the workbench keeps its state. */
export const stateDirName = '.workbench';

/** Where the conversations of a folder live, one folder each, inside `.workbench/`. */
export const conversationsDirName = 'conversations';

/**
 * How a message names a state folder the engine opened (`rpi/`, `runs/` and `conversation.jsonl` are in
 * it): `.workbench/conversations/<id>` for a conversation's own folder, `.workbench` for a folder still in
 * the single-conversation layout. Worked out from the path the engine built (the held `.workbench/` is
 * named through a descriptor, so only the last steps tell), never from text read back.
 */
export function shownStateDir(stateDir: string): string {
  const parent = path.dirname(stateDir);
  if (path.basename(parent) !== conversationsDirName) return stateDirName;
  return `${stateDirName}/${conversationsDirName}/${path.basename(stateDir)}`;
}
