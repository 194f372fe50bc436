import { createHash } from 'node:crypto';
import type { AllowedCommand } from '../settings/allowedCommands.js';
import type { Workspace } from '../workspace/workspace.js';
import { commandDefinitions } from './commandDefinitions.js';

/** Each defining file's content hash, `absent` when nothing is there, `unreadable` when it cannot be read. */
export type DefinitionHashes = Record<string, string>;

const absent = 'absent';
const unreadable = 'unreadable';
/** A definition file larger than this is not hashed: it counts as unreadable, so the command asks. */
const maxDefinitionBytes = 8 * 1024 * 1024;

/**
 * Hashes the files that define what `words` runs from folder `cwd` (see commandDefinitions), read now
 * through the workspace, so a link out of the folder, a FIFO or a hard-linked file is never followed.
 */
export async function definitionHashes(workspace: Workspace, words: readonly string[], cwd: string): Promise<DefinitionHashes> {
  const hashes: DefinitionHashes = {};
  for (const file of commandDefinitions(words, cwd)) hashes[file] = await hashOf(workspace, file);
  return hashes;
}

/**
 * Why an allow-listed command must ask again, or null while everything that defines what it runs is as it
 * was when the user allowed it. An entry saved before allowances were bound (no `files`) asks once, unless
 * the command runs nothing the project defines.
 */
export function changedDefinitionsReason(entry: AllowedCommand, now: DefinitionHashes): string | null {
  const files = Object.keys(now);
  if (files.length === 0) return null;
  const quoted = `\`${entry.command}\``;
  if (entry.files === undefined) {
    return `${quoted} was allowed before the workbench kept track of the files that define what it runs (${listed(files)}); choose "Always allow" again to bind it to them as they are now`;
  }
  const recorded = entry.files;
  const changed = files.filter((file) => now[file] === unreadable || recorded[file] !== now[file]);
  if (changed.length === 0) return null;
  const verb = changed.length === 1 ? 'has' : 'have';
  return `${listed(changed)} ${verb} changed since you allowed ${quoted}, and ${changed.length === 1 ? 'it defines' : 'they define'} what that command runs`;
}

async function hashOf(workspace: Workspace, file: string): Promise<string> {
  try {
    const target = await workspace.resolve(file, 'read');
    const handle = await workspace.openForRead(target);
    try {
      if ((await handle.stat()).size > maxDefinitionBytes) return unreadable;
      return `sha256:${createHash('sha256').update(await handle.readFile()).digest('hex')}`;
    } finally {
      await handle.close();
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? absent : unreadable;
  }
}

function listed(files: readonly string[]): string {
  if (files.length <= 1) return files.join('');
  return `${files.slice(0, -1).join(', ')} and ${files.at(-1) ?? ''}`;
}
