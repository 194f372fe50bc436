import path from 'node:path';
import { z } from 'zod';
import { phaseSchema } from '../contract/index.js';
import { AppendLog } from './appendLog.js';

export const toolLogRecordSchema = z.object({
  /** Increasing across runs and reopenings; the model recalls a truncated result by it. */
  id: z.number().int().positive(),
  runId: z.string(),
  /** The request (its user message) the call worked on: every run of it, a resumed one too, shares it. */
  messageId: z.string().optional(),
  phase: phaseSchema,
  tool: z.string(),
  args: z.unknown(),
  /** The full result text, however long; only the model's context gets a truncated copy. */
  result: z.string(),
  ok: z.boolean(),
  durationMs: z.number().nonnegative(),
  ts: z.number(),
});
export type ToolLogRecord = z.infer<typeof toolLogRecordSchema>;

export const toolLogFile = (stateDir: string): string => path.join(stateDir, 'tool-log.jsonl');

export interface ToolLog {
  /** What reading the log at open skipped or will cut off, one sentence each. */
  readonly warnings: string[];
  /** Stores the record under the next id and returns it as stored. */
  append(record: Omit<ToolLogRecord, 'id'>): Promise<ToolLogRecord>;
  /** The record with this id, or null when there is none. */
  recall(id: number): Promise<ToolLogRecord | null>;
  /** The calls of one tool made for one request, oldest first. */
  callsOf(tool: string, messageId: string): Promise<ToolLogRecord[]>;
  /** Lets go of the file, which stays open between appends (every tool call appends one record). */
  close(): Promise<void>;
}

/** Opens `.workbench/tool-log.jsonl`, reading it once to learn the next id. */
export async function openToolLog(stateDir: string, onCut?: (message: string) => void): Promise<ToolLog> {
  const log = new AppendLog({ file: toolLogFile(stateDir), schema: toolLogRecordSchema, label: 'tool-log.jsonl', keepOpen: true, ...(onCut ? { onCut } : {}) });
  const { records, warnings } = await log.load();
  let nextId = records.reduce((max, record) => Math.max(max, record.id), 0) + 1;
  return {
    warnings,
    async append(record) {
      const stored = toolLogRecordSchema.parse({ ...record, id: nextId });
      nextId += 1;
      await log.append(stored);
      return stored;
    },
    recall: (id) => log.find((record) => record.id === id),
    callsOf: (tool, messageId) => log.filter((record) => record.tool === tool && record.messageId === messageId, JSON.stringify(messageId)),
    close: () => log.close(),
  };
}
