import { IgnoreRules } from '../workspace/ignoreRules.js';
import { refuseHiddenFolder } from '../workspace/pathRules.js';
import type { Workspace, WorkspacePath } from '../workspace/workspace.js';
import { ToolError } from './tool.js';

export interface ListableFolder {
  readonly target: WorkspacePath;
  /** Whether .gitignore ignores the folder itself; it is shown anyway because it was asked for by name. */
  readonly ignored: boolean;
}

/**
 * The folder a listing tool was pointed at: inside the project, not .git/ or .workbench/, existing, and
 * a folder. Anything else is an error the model can act on.
 */
export async function listableFolder(workspace: Workspace, requested: string): Promise<ListableFolder> {
  const target = await workspace.resolve(requested, 'read');
  refuseHiddenFolder(target, 'listed');
  const info = await workspace.statIfExists(target);
  if (!info) throw new ToolError(`${requested} does not exist. Use list_files on its parent folder to see what is there.`);
  if (!info.isDirectory()) {
    throw new ToolError(`${requested} is a file, not a folder. Use get_file_info for its size and line count, or read_file to read it.`);
  }
  return { target, ignored: IgnoreRules.ignoresFolder(workspace.root, target.rel) };
}
