import type { Phase } from '../contract/index.js';

/**
 * The tools each phase may call, enforced in code: a call outside its phase's set is refused and logged,
 * never run, whatever the model sends. Research and Plan can read but never write or run a command.
 */
export const phaseTools: Readonly<Record<Phase, readonly string[]>> = {
  research: ['list_files', 'get_file_info', 'get_file_map', 'read_file', 'search_files', 'recall_tool_result'],
  plan: ['read_file', 'list_files', 'recall_tool_result'],
  implement: [
    'list_files',
    'get_file_info',
    'get_file_map',
    'read_file',
    'search_files',
    'recall_tool_result',
    'write_file',
    'edit_file',
    'delete_file',
    'move_file',
    'run_command',
  ],
  summary: [],
};
