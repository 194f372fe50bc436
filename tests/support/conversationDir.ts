import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

/**
 * The folder of a project's one conversation, found synchronously for path helpers: `.workbench/` itself
 * while the folder is still in the single-conversation layout (never changed since it was planted).
 */
export function conversationDir(root: string): string {
  const dir = path.join(root, '.workbench', 'conversations');
  const names = existsSync(dir) ? readdirSync(dir).filter((name) => name.startsWith('c-')) : [];
  if (names.length > 1) throw new Error(`${root} holds ${names.length} conversations; name the one meant.`);
  return names[0] === undefined ? path.join(root, '.workbench') : path.join(dir, names[0]);
}
