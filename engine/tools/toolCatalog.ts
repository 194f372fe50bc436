import { z } from 'zod';
import type { Phase } from '../contract/index.js';
import { askUser } from './askUser.js';
import { deleteFile } from './deleteFile.js';
import { editFile } from './editFile.js';
import { getFileInfo } from './getFileInfo.js';
import { getFileMap } from './getFileMap.js';
import { listFiles } from './listFiles.js';
import { moveFile } from './moveFile.js';
import { docxGetStyles, pptxGetStyles, xlsxGetStyles } from './officeStyles.js';
import { isOffered, phaseTools, type ToolOffer } from './phaseTools.js';
import { readFile } from './readFile.js';
import { recallToolResult } from './recallToolResult.js';
import { runCommand } from './runCommand.js';
import { searchFiles } from './searchFiles.js';
import { tableDescribe } from './tableDescribe.js';
import { tableGetMap } from './tableGetMap.js';
import { tableQuery } from './tableQuery.js';
import { tableReadRows } from './tableReadRows.js';
import { tableStats } from './tableStats.js';
import type { Tool } from './tool.js';
import { writeFile } from './writeFile.js';
import { writeXlsx } from './writeXlsx.js';

/** The tables and office files tools of DESIGN §5 (issue 17). */
const tableTools = [tableGetMap, tableDescribe, tableStats, tableReadRows, tableQuery, xlsxGetStyles, docxGetStyles, pptxGetStyles, writeXlsx];

/** Every tool of DESIGN §5, by name. */
export const toolCatalog: ReadonlyMap<string, Tool> = new Map(
  [listFiles, getFileInfo, getFileMap, readFile, searchFiles, recallToolResult, askUser, writeFile, editFile, deleteFile, moveFile, runCommand, ...tableTools].map(
    (tool) => [tool.name, tool as Tool],
  ),
);

/** The tools a phase may call, in the phase's order (phaseTools); given an offer, only those it offers. */
export function toolsForPhase(phase: Phase, offer?: ToolOffer): Tool[] {
  return phaseTools[phase].filter((name) => !offer || isOffered(name, offer)).map((name) => toolCatalog.get(name)!);
}

/** A tool as the Chat Completions API takes it: name, description, JSON Schema of the parameters. */
export interface ToolDefinition {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

/** Each tool's definition, made once: converting its parameters to JSON Schema every model turn cost more than the rest of the turn's own work. */
const definitions = new WeakMap<Tool, ToolDefinition>();

export function toolDefinitions(tools: readonly Tool[]): ToolDefinition[] {
  return tools.map((tool) => {
    let definition = definitions.get(tool);
    if (!definition) {
      definition = { type: 'function', function: { name: tool.name, description: tool.description, parameters: parametersSchema(tool) } };
      definitions.set(tool, definition);
    }
    return definition;
  });
}

function parametersSchema(tool: Tool): Record<string, unknown> {
  if (tool.jsonSchema) return tool.jsonSchema;
  // 'input' so that parameters with defaults are optional for the model, as they are for the handler.
  const { $schema: _, ...schema } = z.toJSONSchema(tool.parameters, { io: 'input' });
  return schema;
}
