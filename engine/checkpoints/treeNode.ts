import { createHash } from 'node:crypto';
import { z } from 'zod';
import { isHiddenName, type FileRecord } from './workspaceState.js';

export const hashSchema = z.string().regex(/^[0-9a-f]{64}$/, 'not a sha256 hash');

/**
 * One path segment that can only name something inside the folder it is listed in: never '.', '..', a
 * separator, NUL, or git's and the workbench's own folders. This is what keeps a tampered checkpoint from
 * writing anywhere else, since every restored path is built from such names.
 */
function isSafeName(name: string): boolean {
  if (name === '' || name === '.' || name === '..' || name.includes('/') || name.includes('\0')) return false;
  if (process.platform === 'win32' && (name.includes('\\') || name.includes(':'))) return false;
  return !isHiddenName(name);
}

const nameSchema = z.string().refine(isSafeName, { message: 'a name that leads outside its folder or into .git/ or .workbench/' });

const treeEntrySchema = z.discriminatedUnion('type', [
  z.object({
    name: nameSchema,
    type: z.literal('file'),
    mode: z.number().int().min(0).max(0o7777),
    hash: hashSchema,
    size: z.number().int().nonnegative(),
    mtimeMs: z.number(),
    ctimeMs: z.number(),
    ino: z.number().nonnegative(),
    recheck: z.literal(true).optional(),
  }),
  z.object({ name: nameSchema, type: z.literal('symlink'), target: z.string().min(1).refine((target) => !target.includes('\0')) }),
  z.object({ name: nameSchema, type: z.literal('unrecorded') }),
  z.object({ name: nameSchema, type: z.literal('folder'), tree: hashSchema, mode: z.number().int().min(0).max(0o7777).optional() }),
]);
export type TreeEntry = z.infer<typeof treeEntrySchema>;

const treeNodeSchema = z.object({ entries: z.array(treeEntrySchema) });

/** A folder's listing as stored: its bytes and their sha256, which is its name in the store. */
export interface EncodedTree {
  hash: string;
  bytes: Buffer;
}

/** Serialises a folder's entries in name order with a fixed key order, so equal folders get equal hashes. */
export function encodeTree(entries: TreeEntry[]): EncodedTree {
  const sorted = [...entries].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)).map(canonical);
  const bytes = Buffer.from(JSON.stringify({ entries: sorted }));
  return { hash: createHash('sha256').update(bytes).digest('hex'), bytes };
}

/** Parses stored bytes back into entries, refusing any that do not hash to `hash`, do not parse, or repeat a name. */
export function decodeTree(hash: string, bytes: Buffer): TreeEntry[] {
  if (createHash('sha256').update(bytes).digest('hex') !== hash) throw new Error(`folder listing ${hash} is damaged (its content does not match its hash)`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new Error(`folder listing ${hash} is not valid JSON`);
  }
  const result = treeNodeSchema.safeParse(parsed);
  if (!result.success) throw new Error(`folder listing ${hash} is invalid: ${result.error.issues[0]?.message ?? 'unknown shape'}`);
  const names = new Set(result.data.entries.map((entry) => entry.name));
  if (names.size !== result.data.entries.length) throw new Error(`folder listing ${hash} names an entry twice`);
  return result.data.entries;
}

/** The tree entry for a file record under `name`. */
export function entryFor(name: string, record: FileRecord): TreeEntry {
  return { name, ...record };
}

/** The file record a tree entry holds (not for folders). */
export function recordOf(entry: Exclude<TreeEntry, { type: 'folder' }>): FileRecord {
  const { name: _name, ...record } = entry;
  return record;
}

function canonical(entry: TreeEntry): TreeEntry {
  switch (entry.type) {
    case 'file': {
      const { name, type, mode, hash, size, mtimeMs, ctimeMs, ino, recheck } = entry;
      return recheck ? { name, type, mode, hash, size, mtimeMs, ctimeMs, ino, recheck } : { name, type, mode, hash, size, mtimeMs, ctimeMs, ino };
    }
    case 'symlink':
      return { name: entry.name, type: entry.type, target: entry.target };
    case 'unrecorded':
      return { name: entry.name, type: entry.type };
    case 'folder':
      return entry.mode === undefined ? { name: entry.name, type: entry.type, tree: entry.tree } : { name: entry.name, type: entry.type, tree: entry.tree, mode: entry.mode };
  }
}
