import path from 'node:path';
import { z } from 'zod';
import { ToolError, defineTool } from './tool.js';

export const moveFile = defineTool({
  name: 'move_file',
  description:
    'Move or rename a file or folder inside the project. Missing parent folders of the destination are created; an ' +
    'existing destination is never overwritten.',
  parameters: z.object({
    from: z.string().describe('Current path, relative to the project folder.'),
    to: z.string().describe('New path, relative to the project folder.'),
  }),
  mutates: true,
  async run({ from, to }, { workspace }) {
    const source = await workspace.resolve(from, 'write', { followLink: false });
    const destination = await workspace.resolve(to, 'write', { followLink: false });
    if (!(await workspace.statIfExists(source))) throw new ToolError(`${from} does not exist, so it cannot be moved.`);
    if (destination.real.startsWith(source.real + path.sep)) throw new ToolError(`${to} is inside ${from}; a folder cannot be moved into itself.`);
    await workspace.move(source, destination);
    return { text: `Moved ${source.rel} to ${destination.rel}.` };
  },
});
