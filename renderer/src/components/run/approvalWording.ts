import { isMcpToolName } from '../../../../engine/contract/mcpToolName.js';
import type { ApprovalStatus } from '../../store/runView.js';

const actions: Record<string, string> = {
  write_file: 'Write a file',
  edit_file: 'Edit a file',
  delete_file: 'Delete a file',
  move_file: 'Move a file',
  run_command: 'Run a command',
};

/** What a tool call asks to do, in words: "Write a file", "Call an MCP tool", or the tool's name. */
export const actionOf = (tool: string): string => actions[tool] ?? (isMcpToolName(tool) ? 'Call an MCP tool' : `Use ${tool}`);

/** The "always allow" button of an approval: the exact command, or the MCP tool. */
export const alwaysAllowLabel = (tool: string): string => (isMcpToolName(tool) ? 'Always allow this MCP tool' : 'Always allow this command');

export const answerOf: Record<Exclude<ApprovalStatus, 'pending'>, string> = {
  approved: 'Approved',
  edited: 'Approved with edited arguments',
  denied: 'Denied',
  expired: 'Timed out: nobody answered in time, so it was not run.',
};

