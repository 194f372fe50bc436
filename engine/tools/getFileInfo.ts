import path from 'node:path';
import { z } from 'zod';
import { specialKind } from '../workspace/heldFolder.js';
import type { Workspace } from '../workspace/workspace.js';
import { sniffFileKind } from '../files/fileKind.js';
import { formatSize } from '../files/fileSize.js';
import { countLines } from './lineReader.js';
import { ToolError, defineTool } from './tool.js';

/** Past this size the line count is skipped: counting would read the whole file for one number. */
const lineCountLimit = 64 * 1024 * 1024;

export const getFileInfo = defineTool({
  name: 'get_file_info',
  description:
    'Facts about one file or folder without reading it: type, size, line count, whether it is binary (and what kind), ' +
    'last modified time, and whether .gitignore ignores it. Use it before read_file on files that may be large or binary.',
  parameters: z.object({
    path: z.string().describe('Path relative to the project folder.'),
  }),
  mutates: false,
  async run({ path: requested }, { workspace }) {
    return { text: await fileFacts(workspace, requested) };
  },
});

/** What get_file_info says about `requested`: its kind, size, line count and the facts around it. */
async function fileFacts(workspace: Workspace, requested: string): Promise<string> {
  const target = await workspace.resolve(requested, 'read');
  const info = await workspace.statIfExists(target);
  if (!info) throw new ToolError(`${requested} does not exist.`);
  const facts: string[] = [];
  const lexical = requested.replace(/\\/g, '/').replace(/^\.\/+/, '').replace(/\/+$/, '');
  if (target.rel !== lexical && target.rel !== '') facts.push(`reached through a symlink; real path ${target.rel}`);
  facts.push(`modified ${info.mtime.toISOString()}`);
  const ignored = target.rel !== '' && (await isIgnored(workspace, target.rel, info.isDirectory()));
  if (ignored) facts.push('ignored by .gitignore');
  if (info.isDirectory()) {
    const entries = await workspace.list(target);
    return [`${requested}: folder with ${entries.length} entries`, ...facts].join('\n');
  }
  const special = specialKind(info);
  if (special) return [`${requested}: ${special}, ${info.size.toLocaleString('en-US')} bytes; special files are never opened by the tools`, ...facts].join('\n');
  if (info.isFile() && info.nlink > 1) {
    return [`${requested}: file with ${info.nlink} hard links, ${formatSize(info.size)}; the tools do not read hard-linked files (another name may be outside the project folder)`, ...facts].join('\n');
  }
  const handle = await workspace.openForRead(target);
  try {
    const kind = await sniffFileKind(handle);
    const size = `${formatSize(info.size)} (${info.size.toLocaleString('en-US')} bytes)`;
    if (kind.binary) return [`${requested}: binary file, ${kind.description}, ${size}`, ...facts].join('\n');
    const lines = info.size > lineCountLimit ? 'line count skipped (over 64 MB)' : `${(await countLines(handle)).toLocaleString('en-US')} lines`;
    return [`${requested}: text file, ${size}, ${lines}`, ...facts].join('\n');
  } finally {
    await handle.close();
  }
}

async function isIgnored(workspace: Workspace, rel: string, isDirectory: boolean): Promise<boolean> {
  const parent = path.posix.dirname(rel);
  const rules = workspace.ignoreRulesFor(parent === '.' ? '' : parent);
  return rules.ignores(rel, isDirectory);
}
