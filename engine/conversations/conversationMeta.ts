import path from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../files/atomicWrite.js';
import { readStateText } from '../store/stateFile.js';
import { oneLineTitle } from './conversationTitle.js';

export const metaFileName = 'meta.json';

/** More than a meta.json of the engine's ever holds: a larger one is planted and not read. */
const metaMaxBytes = 64 * 1024;

const metaSchema = z.object({
  id: z.string(),
  created: z.number().int().nonnegative(),
  /** The user's own title; null: the first request names the conversation. */
  title: z.string().nullable(),
});

export type ConversationMeta = z.infer<typeof metaSchema>;

/**
 * A conversation's meta.json as read: its creation time and the title the user gave it, shown only after
 * oneLineTitle. Null, with the reason, when it is missing or unreadable: the conversation is still listed.
 */
export async function readMeta(dir: string): Promise<{ meta: ConversationMeta | null; problem: string | null }> {
  let text: string | null;
  try {
    text = await readStateText(path.join(dir, metaFileName), { maxBytes: metaMaxBytes });
  } catch (error) {
    return { meta: null, problem: error instanceof Error ? error.message : String(error) };
  }
  if (text === null) return { meta: null, problem: null };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { meta: null, problem: `${metaFileName} is not valid JSON` };
  }
  const checked = metaSchema.safeParse(parsed);
  if (!checked.success) return { meta: null, problem: `${metaFileName} does not hold a conversation's details` };
  const title = checked.data.title === null ? null : oneLineTitle(checked.data.title) || null;
  return { meta: { ...checked.data, title }, problem: null };
}

export async function writeMeta(dir: string, meta: ConversationMeta): Promise<void> {
  await writeFileAtomic(path.join(dir, metaFileName), `${JSON.stringify(meta)}\n`);
}
