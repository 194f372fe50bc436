import path from 'node:path';
import type { ApprovalPreview, FileDiff } from '../contract/changes.js';
import { editProblems } from '../approvals/approvalBroker.js';
import { readEditableText } from '../tools/editFile.js';
import { refuseEmptyEdit, replaceOnce } from '../tools/textEdit.js';
import { ToolError, type Tool } from '../tools/tool.js';
import { entriesUnder } from '../workspace/entriesUnder.js';
import { PathRefusedError } from '../workspace/pathRules.js';
import type { Workspace, WorkspacePath } from '../workspace/workspace.js';
import { diffPair, type PathPair } from './computeChanges.js';
import { bytesSource, folderSource } from './sideSources.js';

/** Files of a folder listed one by one when it is deleted or moved; the rest are counted. */
const listedFiles = 200;
/** Files up to this size are previewed whole, so every folded stretch can be opened. */
const wholeFileBytes = 1_000_000;

const nothing: ApprovalPreview = { files: [], more: 0, problem: null };

/**
 * What a file tool's call would do to the folder, as diffs, computed the way the tool would act and
 * changing nothing: write_file's new content, edit_file's replacement, what delete_file takes away
 * (every file of a folder), what move_file renames. When the call would fail (old_text not found, the
 * destination taken, a refused path) the preview says why instead. Arguments that do not fit the tool
 * throw, with the sentence the approval would refuse them with.
 */
export async function previewToolCall(workspace: Workspace, tool: Tool, args: Record<string, unknown>): Promise<ApprovalPreview> {
  const problems = editProblems(tool, args);
  if (problems !== null) throw new Error(problems);
  const text = (name: string) => (typeof args[name] === 'string' ? args[name] : '');
  try {
    switch (tool.name) {
      case 'write_file':
        return await previewContent(workspace, await workspace.resolve(text('path'), 'write'), text('content'));
      case 'edit_file':
        return await previewEdit(workspace, text('path'), text('old_text'), text('new_text'));
      case 'delete_file':
        return await previewDelete(workspace, text('path'));
      case 'move_file':
        return await previewMove(workspace, text('from'), text('to'));
      default:
        return nothing;
    }
  } catch (error) {
    if (error instanceof ToolError || error instanceof PathRefusedError) return { ...nothing, problem: error.message };
    throw error;
  }
}

/** The file at `target` replaced by `content`, with its mode kept (a new file gets 644, as the tools write it). */
async function previewContent(workspace: Workspace, target: WorkspacePath, content: string): Promise<ApprovalPreview> {
  const stats = await workspace.statIfExists(target);
  if (stats?.isDirectory()) throw new ToolError(`${target.requested} is a folder, so it cannot be replaced by a file.`);
  const mode = stats ? stats.mode & 0o7777 : 0o644;
  const before = stats ? await folderSource(workspace.root, target.rel) : null;
  const bytes = Buffer.from(content, 'utf8');
  const pair = { path: target.rel, before, after: bytesSource(bytes, mode) };
  return { files: [await diffPair(pair, { context: contextFor(Math.max(bytes.length, stats?.size ?? 0)) })], more: 0, problem: null };
}

async function previewEdit(workspace: Workspace, requested: string, oldText: string, newText: string): Promise<ApprovalPreview> {
  refuseEmptyEdit(oldText, newText);
  const target = await workspace.resolve(requested, 'write');
  const edit = replaceOnce(await readEditableText(workspace, target, requested), { path: requested, oldText, newText });
  return previewContent(workspace, target, edit.text);
}

async function previewDelete(workspace: Workspace, requested: string): Promise<ApprovalPreview> {
  const target = await workspace.resolve(requested, 'write', { followLink: false });
  const stats = await workspace.statIfExists(target);
  if (!stats) throw new ToolError(`${requested} does not exist, so there is nothing to delete.`);
  const paths = stats.isDirectory() ? await filesUnder(workspace, target.rel) : [target.rel];
  return listed(paths, async (rel) => {
    const before = await folderSource(workspace.root, rel);
    return diffPair({ path: rel, before, after: null }, { context: contextFor(0) });
  });
}

async function previewMove(workspace: Workspace, from: string, to: string): Promise<ApprovalPreview> {
  const source = await workspace.resolve(from, 'write', { followLink: false });
  const destination = await workspace.resolve(to, 'write', { followLink: false });
  const stats = await workspace.statIfExists(source);
  if (!stats) throw new ToolError(`${from} does not exist, so it cannot be moved.`);
  if (await workspace.statIfExists(destination)) throw new ToolError(`${to} already exists, and move_file never overwrites, so this move would fail.`);
  if (destination.real.startsWith(source.real + path.sep)) throw new ToolError(`${to} is inside ${from}; a folder cannot be moved into itself.`);
  const paths = stats.isDirectory() ? await filesUnder(workspace, source.rel) : [source.rel];
  return listed(paths, async (rel) => {
    const moved = destination.rel + rel.slice(source.rel.length);
    const side = await folderSource(workspace.root, rel);
    const pair: PathPair = { path: moved, before: side, after: side };
    return diffPair(pair, { oldPath: rel, context: 3 });
  });
}

/** The first files of a long list, previewed; the rest counted. */
async function listed(paths: readonly string[], preview: (rel: string) => Promise<FileDiff>): Promise<ApprovalPreview> {
  const files: FileDiff[] = [];
  for (const rel of paths.slice(0, listedFiles)) files.push(await preview(rel));
  return { files, more: Math.max(0, paths.length - listedFiles), problem: null };
}

/** Every file and symlink inside a folder (not following links), sorted; what cannot be reached is reported and left out. */
async function filesUnder(workspace: Workspace, rel: string): Promise<string[]> {
  const entries = await entriesUnder(workspace.root, rel, { onUnreachable: workspace.unreachable.report });
  return entries.flatMap((entry) => (entry.isFolder ? [] : [entry.relPath]));
}

function contextFor(bytes: number): number {
  return bytes > wholeFileBytes ? 3 : Number.POSITIVE_INFINITY;
}
