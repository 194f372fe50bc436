import { checkFolder, openUsedWorkbench, type Workbench } from '../../engine/index.js';
import { visibleLine } from '../terminal/visibleText.js';
import { CliError } from './cliError.js';

/** A folder as a command that only reads sees it: its real path, and its workbench, or null when the workbench never used it. */
export interface FolderForReading {
  root: string;
  workbench: Workbench | null;
}

/** Opens a folder for history or diff: checked, a planted `.workbench` refused, and nothing created in a folder never used. */
export async function openForReading(folder: string): Promise<FolderForReading> {
  const root = await checkFolder(folder);
  return { root, workbench: await openUsedWorkbench(root) };
}

/** A message asked for in a folder the workbench never used: a usage error, as an unknown message is in a used one. */
export function noMessageYet(root: string, messageId: string): CliError {
  return new CliError(`No requests yet in ${visibleLine(root)}, so there is no message "${visibleLine(messageId.slice(0, 120))}".`);
}
