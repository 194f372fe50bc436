import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'vitest';
import type { EventOf, WorkbenchEventType } from '../../engine/contract/index.js';
import type { Workbench } from '../../engine/index.js';

/** The folders of a project's conversations (`.workbench/conversations/<id>/`), by id. */
export async function conversationFolders(root: string): Promise<Record<string, string>> {
  const dir = path.join(root, '.workbench', 'conversations');
  const names = await readdir(dir).catch(() => [] as string[]);
  return Object.fromEntries(names.filter((name) => name.startsWith('c-')).map((name) => [name, path.join(dir, name)]));
}

/** The folder of a project's one conversation, where its conversation.jsonl, rpi/ and runs/ are. */
export async function onlyConversationFolder(root: string): Promise<string> {
  const folders = Object.values(await conversationFolders(root));
  expect(folders, 'the folder should hold exactly one conversation').toHaveLength(1);
  return folders[0]!;
}

/** The next event of this type the workbench emits from now on. */
export function nextEvent<T extends WorkbenchEventType>(workbench: Workbench, type: T): Promise<EventOf<T>> {
  return new Promise((resolve) => {
    const stop = workbench.subscribe((event) => {
      if (event.type !== type) return;
      stop();
      resolve(event as EventOf<T>);
    });
  });
}
