import { z } from 'zod';
import { phaseSchema } from './model.js';
import { mcpServerNamePattern } from './mcpToolName.js';

/**
 * The user's MCP servers as the Settings page shows and edits them, and their live status while a folder
 * is open. Secret values (an `env` token, an `Authorization` header) never cross: a page sees that one is
 * set, and types a new one to replace it.
 */

/** What a server is doing: not started (no folder open), starting, ready with its tools, failed, or stopped. */
export const mcpServerStateSchema = z.enum(['disabled', 'idle', 'starting', 'ready', 'failed', 'stopped']);
export type McpServerState = z.infer<typeof mcpServerStateSchema>;

/** One tool of a server, as the model is offered it. */
export const mcpToolViewSchema = z.object({
  /** The tool's name on its server. */
  name: z.string(),
  /** The name the model calls it by: `mcp__<server>__<tool>`. */
  modelName: z.string(),
  description: z.string(),
  /** The server marks it read-only (`readOnlyHint`). */
  readOnly: z.boolean(),
  /** The phases it is offered in: Implement, and Research too for a read-only tool of a server allowed there. */
  phases: z.array(phaseSchema),
  /** The user chose "always allow" for it: it runs without asking. */
  alwaysAllowed: z.boolean(),
});
export type McpToolView = z.infer<typeof mcpToolViewSchema>;

export const mcpServerStatusSchema = z.object({
  name: z.string(),
  state: mcpServerStateSchema,
  tools: z.array(mcpToolViewSchema),
  /** What went wrong, in a sentence: it could not start, it crashed, its settings are not valid. */
  error: z.string().optional(),
  /** The last lines the server wrote to stderr (stdio servers). */
  stderrTail: z.string().optional(),
  /** The server's own name and version, as it introduced itself. */
  serverInfo: z.string().optional(),
  /** Engine clock (ms) of this status. */
  updatedAt: z.number(),
});
export type McpServerStatus = z.infer<typeof mcpServerStatusSchema>;

/** An `env` variable or an HTTP header of a server; a secret's value is never sent to a page (null). */
export const mcpSettingViewSchema = z.object({
  name: z.string(),
  value: z.string().nullable(),
  secret: z.boolean(),
});
export type McpSettingView = z.infer<typeof mcpSettingViewSchema>;

export const mcpTransportSchema = z.enum(['stdio', 'http'], { error: 'must be "stdio" or "http"' });
export type McpTransport = z.infer<typeof mcpTransportSchema>;

/** A configured server as Settings shows it. */
export const mcpServerViewSchema = z.object({
  name: z.string(),
  transport: mcpTransportSchema,
  command: z.string(),
  args: z.array(z.string()),
  /** Empty: the opened folder. */
  cwd: z.string(),
  env: z.array(mcpSettingViewSchema),
  url: z.string(),
  headers: z.array(mcpSettingViewSchema),
  enabled: z.boolean(),
  /** Its read-only tools may also be offered in Research. */
  researchReadOnly: z.boolean(),
  /** How long one call may take. */
  timeoutSeconds: z.number().int().positive(),
  status: mcpServerStatusSchema,
});
export type McpServerView = z.infer<typeof mcpServerViewSchema>;

/** What `mcp:*` requests answer: every server, and what this host can do with them. */
export interface McpOverview {
  servers: McpServerView[];
  /** The file the servers are kept in (`mcpServers`, the shape other MCP clients use). */
  configFile: string;
  /** Whether secret values can be stored (encrypted with the OS keychain); when not, why. */
  canStoreSecrets: boolean;
  secretStorageNote?: string;
  /** Servers run only while a folder is open; without one they show as not started. */
  folderOpen: boolean;
}

const settingName = (what: string) =>
  z
    .string({ error: `must be ${what}` })
    .trim()
    .min(1, { error: `must be ${what}` })
    .max(200, { error: 'must be at most 200 characters' })
    .refine((name) => !/[\r\n\0]/.test(name), { error: 'must be on one line' });

const settingInput = (what: string) =>
  z.strictObject({
    name: settingName(what),
    /** Absent for a secret that is already stored: it is kept as it is. */
    value: z.string({ error: 'must be a string' }).refine((value) => !value.includes('\0'), { error: 'must not contain a NUL character' }).optional(),
    secret: z.boolean({ error: 'must be true or false' }),
  });

export const mcpServerNameSchema = z
  .string({ error: 'must be a server name' })
  .trim()
  .regex(mcpServerNamePattern, { error: 'must start with a letter or digit and hold only letters, digits, "_", "-" and "." (at most 40)' });

/** A server as the Settings form saves it. */
export const mcpServerInputSchema = z
  .strictObject({
    name: mcpServerNameSchema,
    transport: mcpTransportSchema,
    command: z.string({ error: 'must be a string' }).trim().optional(),
    args: z.array(z.string({ error: 'must be a list of strings' }), { error: 'must be a list of arguments' }).default([]),
    cwd: z.string({ error: 'must be a folder path' }).trim().optional(),
    env: z.array(settingInput('an environment variable name'), { error: 'must be a list of variables' }).default([]),
    url: z.string({ error: 'must be a URL string' }).trim().optional(),
    headers: z.array(settingInput('a header name'), { error: 'must be a list of headers' }).default([]),
    enabled: z.boolean({ error: 'must be true or false' }).default(true),
    researchReadOnly: z.boolean({ error: 'must be true or false' }).default(false),
    timeoutSeconds: z
      .number({ error: 'must be a number of seconds' })
      .int({ error: 'must be a whole number of seconds' })
      .min(5, { error: 'must be at least 5 seconds' })
      .max(3600, { error: 'must be at most 3,600 seconds (an hour)' })
      .default(120),
  })
  .superRefine((server, context) => {
    if (server.transport === 'stdio' && !server.command) context.addIssue({ code: 'custom', path: ['command'], message: 'is needed for a stdio server' });
    if (server.transport === 'http' && !isHttpUrl(server.url ?? '')) context.addIssue({ code: 'custom', path: ['url'], message: 'must be an http:// or https:// URL' });
  });
export type McpServerInput = z.input<typeof mcpServerInputSchema>;

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
