import { z } from 'zod';
import { contextResultChars } from './resultCap.js';
import { ToolError, defineTool } from './tool.js';

export const recallToolResult = defineTool({
  name: 'recall_tool_result',
  description:
    'Read the full text of an earlier tool result that was truncated in your context. Pass the id named in the ' +
    `truncation note, and offset to continue where the shown part ended. Returns up to ${contextResultChars.toLocaleString('en-US')} characters at a time.`,
  parameters: z.object({
    id: z.number().int().min(1).describe('The tool-log id from the truncation note.'),
    offset: z.number().int().min(0).optional().describe('Character offset to start from. Default 0.'),
  }),
  mutates: false,
  async run({ id, offset = 0 }, { recall }) {
    const entry = await recall(id);
    if (!entry) throw new ToolError(`There is no tool result with id ${id} in this project's tool log.`);
    const { result } = entry;
    if (offset >= result.length && result.length > 0) throw new ToolError(`Result ${id} has ${result.length} characters; offset ${offset} is past the end.`);
    const end = Math.min(result.length, offset + contextResultChars);
    const header = `Result ${id} (${entry.tool}, ${entry.ok ? 'succeeded' : 'failed'}), characters ${offset}–${end} of ${result.length}`;
    const more = end < result.length ? `\n[More follows: call recall_tool_result with id ${id} and offset ${end}.]` : '';
    return `${header}:\n${result.slice(offset, end)}${more}`;
  },
});
