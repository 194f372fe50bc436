import { z } from 'zod';

export const checkpointTagSchema = z.object({
  /** 'run': taken as a message starts its run; 'tool': taken before a mutating tool call or command. */
  reason: z.enum(['run', 'tool']),
  /** The user message whose run this belongs to: undo(messageId) finds its checkpoint by it. */
  messageId: z.string().min(1),
  runId: z.string().min(1).optional(),
  tool: z.string().min(1).optional(),
});
export type CheckpointTag = z.infer<typeof checkpointTagSchema>;

export interface CheckpointInfo {
  /** Sortable: a later checkpoint of a store always has a greater id. */
  id: string;
  createdAt: number;
  tag: CheckpointTag;
  /** Files and symlinks recorded. */
  fileCount: number;
  /** File contents this checkpoint stored that no earlier one had. */
  newObjects: number;
  /** Files read to learn their content; the others were recognised unchanged by size, times and inode. */
  hashedFiles: number;
  /** One sentence per file that could not be recorded as it was, e.g. one that vanished or kept changing while being read. */
  notes: string[];
}

export interface RestoreChange {
  /** From the project folder, '/' separators. */
  path: string;
  kind: 'file' | 'symlink' | 'folder';
  /** 'restored': there now with other content or mode; 'removed': not in the checkpoint; 'recreated': gone since. */
  change: 'restored' | 'removed' | 'recreated';
}

/** A checkpoint that cannot be used as asked; the message says what happened and what to do. */
export class CheckpointError extends Error {
  override name = 'CheckpointError';
}
