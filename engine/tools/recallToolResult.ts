import { z } from 'zod';
import { contextResultChars } from './resultCap.js';
import { ToolError, defineTool } from './tool.js';

/** The smallest page recall_tool_result hands out; a note that cuts a page to fit never asks for less. */
export const minRecallChars = 100;

export const recallToolResult = defineTool({
  name: 'recall_tool_result',
  description:
    'Read the full text of an earlier tool result that was truncated or set aside in your context. Pass the id named in the ' +
    'note, and offset (and limit, when the note gives one) to continue where the shown part ended. Returns up to ' +
    `${contextResultChars.toLocaleString('en-US')} characters at a time.`,
  parameters: z.object({
    id: z.number().int().min(1).describe('The tool-log id from the note.'),
    offset: z.number().int().min(0).optional().describe('Character offset to start from. Default 0.'),
    limit: z
      .number()
      .int()
      .min(minRecallChars)
      .max(contextResultChars)
      .optional()
      .describe(`Most characters to return, so the page fits your context. Default ${contextResultChars.toLocaleString('en-US')}.`),
  }),
  mutates: false,
  async run({ id, offset = 0, limit = contextResultChars }, { recall }) {
    const entry = await recall(id);
    if (!entry) throw new ToolError(`There is no tool result with id ${id} in this project's tool log.`);
    const { result } = entry;
    if (offset >= result.length && result.length > 0) throw new ToolError(`Result ${id} has ${result.length} characters; offset ${offset} is past the end.`);
    const end = Math.min(result.length, offset + limit);
    const header = `Result ${id} (${entry.tool}, ${entry.ok ? 'succeeded' : 'failed'}), characters ${offset}–${end} of ${result.length}`;
    const page = limit === contextResultChars ? '' : ` and limit ${limit}`;
    const more = end < result.length ? `\n[More follows: call recall_tool_result with id ${id} and offset ${end}${page}.]` : '';
    return { text: `${header}:\n${result.slice(offset, end)}${more}` };
  },
});
