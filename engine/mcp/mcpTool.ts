import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { JsonSchemaType } from '@modelcontextprotocol/sdk/validation/types.js';
import { z } from 'zod';
import { secretMask, type KnownSecret, type SecretMask } from '../secrets/secretMask.js';
import type { Tool, ToolContext, ToolResult } from '../tools/tool.js';

/** A tool as its server lists it, with the name the model calls it by. */
export interface McpToolInfo {
  server: string;
  /** The tool's name on its server. */
  name: string;
  /** `mcp__<server>__<tool>` (mcpToolNames.ts). */
  modelName: string;
  description: string;
  /** The server's JSON Schema of the arguments. */
  inputSchema: Record<string, unknown>;
  /** The server marks it `readOnlyHint`. */
  readOnly: boolean;
}

/** What runs a call on the tool's server (its connection). */
export interface McpCaller {
  call(tool: string, args: Record<string, unknown>, options: { signal: AbortSignal; log: (line: string) => void }): Promise<string>;
}

const validators = new AjvJsonSchemaValidator();

/**
 * One tool of a user's MCP server as the engine offers it: its server's JSON Schema goes to the model as
 * is, and arguments are checked against it before the call (executeToolCall refuses what does not fit).
 * `mutates` unless the server marks it read-only. The result has the server's own secrets (its env
 * tokens, its headers) hidden, on top of the mask every tool result gets.
 */
export class McpTool implements Tool<Record<string, unknown>> {
  readonly name: string;
  readonly description: string;
  readonly parameters: z.ZodType<Record<string, unknown>>;
  readonly jsonSchema: Record<string, unknown>;
  readonly mutates: boolean;
  private readonly maskServerSecrets: SecretMask;

  constructor(
    readonly info: McpToolInfo,
    private readonly caller: McpCaller,
    serverSecrets: readonly KnownSecret[],
  ) {
    this.name = info.modelName;
    this.description = `${info.description.trim() || `The "${info.name}" tool.`}\n(Tool "${info.name}" of the user's MCP server "${info.server}".)`;
    this.jsonSchema = modelSchema(info.inputSchema);
    this.parameters = argumentsSchema(this.jsonSchema);
    this.mutates = !info.readOnly;
    this.maskServerSecrets = secretMask(serverSecrets);
  }

  async run(args: Record<string, unknown>, context: ToolContext): Promise<ToolResult> {
    const text = await this.caller.call(this.info.name, args, { signal: context.signal, log: context.log });
    return { text: this.maskServerSecrets(text) };
  }
}

export function isMcpTool(tool: Tool): tool is McpTool {
  return tool instanceof McpTool;
}

/** The schema as the model gets it: an object schema, without `$schema` (which some servers reject). */
function modelSchema(inputSchema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _, ...schema } = inputSchema;
  return { ...schema, type: 'object', properties: isObject(schema['properties']) ? schema['properties'] : {} };
}

/** Arguments as an object that the server's schema accepts; a schema no validator can compile checks only that. */
function argumentsSchema(schema: Record<string, unknown>): z.ZodType<Record<string, unknown>> {
  let validate: ((input: unknown) => { valid: boolean; errorMessage?: string | undefined }) | null = null;
  try {
    validate = validators.getValidator(schema as JsonSchemaType);
  } catch {
    validate = null;
  }
  return z.record(z.string(), z.unknown()).superRefine((value, context) => {
    const checked = validate?.(value);
    if (checked && !checked.valid) context.addIssue({ code: 'custom', message: (checked.errorMessage ?? 'they do not fit the schema').replace(/\bdata\b/g, 'arguments') });
  });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
