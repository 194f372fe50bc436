import { z } from 'zod';
import { formatSize } from '../files/fileSize.js';
import { defineTool } from './tool.js';

export const writeFile = defineTool({
  name: 'write_file',
  description:
    'Create a file, or replace a whole file, with the given content; missing parent folders are created. The write is ' +
    'atomic: the file is never left half written. To change part of an existing file prefer edit_file.',
  parameters: z.object({
    path: z.string().describe('File path relative to the project folder.'),
    content: z.string().describe('The complete new content of the file.'),
  }),
  mutates: true,
  changedPaths: ({ path }) => [path],
  async run({ path, content }, { workspace }) {
    const target = await workspace.resolve(path, 'write');
    const { created } = await workspace.writeFile(target, content);
    return { text: `${created ? 'Created' : 'Replaced'} ${target.rel} (${describeText(content)}).` };
  },
});

/** "12 lines, 340 B" */
export function describeText(content: string): string {
  const lines = content === '' ? 0 : content.split('\n').length - (content.endsWith('\n') ? 1 : 0);
  return `${lines} ${lines === 1 ? 'line' : 'lines'}, ${formatSize(Buffer.byteLength(content))}`;
}
