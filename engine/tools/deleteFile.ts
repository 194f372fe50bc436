import { z } from 'zod';
import { formatSize } from '../files/fileSize.js';
import { ToolError, defineTool } from './tool.js';

export const deleteFile = defineTool({
  name: 'delete_file',
  description: 'Delete a file, or a folder with everything in it. The project folder itself cannot be deleted.',
  parameters: z.object({
    path: z.string().describe('Path relative to the project folder.'),
  }),
  mutates: true,
  async run({ path }, { workspace }) {
    const target = await workspace.resolve(path, 'write', { followLink: false });
    const info = await workspace.statIfExists(target);
    if (!info) throw new ToolError(`${path} does not exist, so there is nothing to delete.`);
    const what = info.isSymbolicLink()
      ? `symlink ${target.rel} (what it points to is kept)`
      : info.isDirectory()
        ? `folder ${target.rel}/ (${(await workspace.list(target)).length} entries)`
        : `${target.rel} (${formatSize(info.size)})`;
    await workspace.remove(target);
    return { text: `Deleted ${what}.` };
  },
});
