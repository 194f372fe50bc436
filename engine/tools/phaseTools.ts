import type { Phase } from '../contract/index.js';

/** The read-only table and office tools (issue 17): Research and Implement. */
const tableReadTools = ['table_get_map', 'table_describe', 'table_stats', 'table_read_rows', 'table_query', 'xlsx_get_styles', 'docx_get_styles', 'pptx_get_styles'];

/**
 * The tools each phase may call, enforced in code: a call outside its phase's set is refused and logged,
 * never run, whatever the model sends. Research and Plan can read but never write or run a command; they
 * alone may ask the user a question (an Implement item that cannot go on says FAILED).
 */
export const phaseTools: Readonly<Record<Phase, readonly string[]>> = {
  research: ['list_files', 'get_file_info', 'get_file_map', 'read_file', 'search_files', 'recall_tool_result', 'ask_user', ...tableReadTools],
  plan: ['read_file', 'list_files', 'recall_tool_result', 'ask_user'],
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
    ...tableReadTools,
    'write_xlsx',
  ],
  summary: [],
};
