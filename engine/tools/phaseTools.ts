import type { Phase } from '../contract/index.js';

/** The read-only table and office tools (issue 17): Research and Implement. */
const tableReadTools = ['table_get_map', 'table_describe', 'table_stats', 'table_read_rows', 'table_query', 'xlsx_get_styles', 'docx_get_styles', 'pptx_get_styles'];

const planTools = ['list_files', 'read_file', 'recall_tool_result'];
const researchTools = [...planTools, 'get_file_info', 'get_file_map', 'search_files', ...tableReadTools];

/**
 * The tools each phase may call, enforced in code: a call outside its phase's set is refused and logged,
 * never run, whatever the model sends. Research and Plan can read but never write or run a command; they
 * alone may ask the user a question (an Implement item that cannot go on says FAILED).
 *
 * In this order, each phase's list begins with the one before it (Plan's, then Research's, up to the
 * question, which comes last as Implement has none), so the tool definitions that open a request are a
 * prefix a provider's prompt cache already holds from the phase before: the cache matches bytes from
 * the start, and tools come first.
 */
export const phaseTools: Readonly<Record<Phase, readonly string[]>> = {
  research: [...researchTools, 'ask_user'],
  plan: [...planTools, 'ask_user'],
  implement: [...researchTools, 'write_file', 'edit_file', 'delete_file', 'move_file', 'run_command', 'write_xlsx'],
  summary: [],
};

/** What decides, once a phase begins, which of its tools are offered to the model. */
export interface ToolOffer {
  /** The folder holds a file the table and office tools read (a table, a workbook, a document, a deck). */
  tables: boolean;
  /** The request or the plan speaks of a spreadsheet, so write_xlsx may be needed in a folder without one. */
  workbooks: boolean;
}

const tableToolNames = new Set(tableReadTools);

/**
 * Whether a tool of the phase is offered: the table and office tools only where the folder holds what
 * they read, write_xlsx also where a spreadsheet was asked for. Their definitions are more than half of
 * Implement's (2,300 of 4,250 tokens), sent with every request of a folder that has no table to read.
 * A call to one not offered is still allowed (its phase's set decides), only not advertised.
 */
export function isOffered(name: string, offer: ToolOffer): boolean {
  if (tableToolNames.has(name)) return offer.tables;
  if (name === 'write_xlsx') return offer.tables || offer.workbooks;
  return true;
}
