import { createHash } from 'node:crypto';
import { z } from 'zod';

/** The file in the user's config directory that holds the servers, in the `mcpServers` shape other MCP clients use. */
export const mcpConfigFileName = 'mcp.json';

/** How long one call may take unless the server's `timeoutSeconds` says otherwise. */
export const defaultCallTimeoutSeconds = 120;

const stringMap = z.record(z.string(), z.string());

/**
 * One entry of `mcpServers` as it is stored. Loose: keys other clients write (`autoApprove`, `type`, …)
 * are kept as they are when the workbench saves the entry. The workbench's own additions are
 * `envEncrypted` / `headersEncrypted` (base64 of the host's cipher output, never the value),
 * `disabled`, `researchReadOnly` and `timeoutSeconds`.
 */
export const storedServerSchema = z.looseObject({
  type: z.string().optional(),
  command: z.string().optional(),
  args: z.array(z.string()).optional(),
  env: stringMap.optional(),
  cwd: z.string().optional(),
  url: z.string().optional(),
  headers: stringMap.optional(),
  envEncrypted: stringMap.optional(),
  headersEncrypted: stringMap.optional(),
  disabled: z.boolean().optional(),
  researchReadOnly: z.boolean().optional(),
  timeoutSeconds: z.number().int().positive().optional(),
});
export type StoredServer = z.infer<typeof storedServerSchema>;

/** The whole file: anything besides `mcpServers` is kept; each server is checked on its own. */
export const mcpConfigSchema = z.looseObject({ mcpServers: z.record(z.string(), z.unknown()).optional() });
export type McpConfig = z.infer<typeof mcpConfigSchema>;

export type StoredTransport = { kind: 'stdio' } | { kind: 'http' } | { kind: 'invalid'; problem: string };

/** Which transport an entry asks for: `type` when given, else `url` (HTTP) or `command` (stdio). */
export function transportOf(server: StoredServer): StoredTransport {
  const type = server.type?.trim().toLowerCase();
  if (type === 'sse') return { kind: 'invalid', problem: 'it uses the older SSE transport, which the workbench does not speak: use the server’s Streamable HTTP endpoint ("type": "http").' };
  if (type === 'stdio') return server.command ? { kind: 'stdio' } : { kind: 'invalid', problem: 'a stdio server needs a "command".' };
  if (type === 'http' || type === 'streamable-http' || type === 'streamablehttp') {
    return server.url ? { kind: 'http' } : { kind: 'invalid', problem: 'an HTTP server needs a "url".' };
  }
  if (type !== undefined && type !== '') return { kind: 'invalid', problem: `its "type" is "${server.type}"; use "stdio" or "http".` };
  if (server.url) return { kind: 'http' };
  if (server.command) return { kind: 'stdio' };
  return { kind: 'invalid', problem: 'it has neither a "command" (stdio) nor a "url" (Streamable HTTP).' };
}

/**
 * What an "always allow" of one of the server's tools is bound to: what it runs (command, arguments,
 * working folder) or where it is (URL). Pointing the same name at another program asks again.
 */
export function serverDefinition(server: StoredServer): string {
  const transport = transportOf(server);
  const what = transport.kind === 'http' ? { url: server.url } : { command: server.command ?? '', args: server.args ?? [], cwd: server.cwd ?? '' };
  return createHash('sha256').update(JSON.stringify(what)).digest('hex').slice(0, 32);
}

/** The entry's problems in one sentence, or null when it can be used. */
export function parseStoredServer(raw: unknown): { ok: true; server: StoredServer } | { ok: false; problem: string } {
  const parsed = storedServerSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? `"${issue.path.join('.')}"` : 'the entry';
    return { ok: false, problem: `${where} is not valid (${issue?.message ?? 'not an object'}).` };
  }
  const transport = transportOf(parsed.data);
  return transport.kind === 'invalid' ? { ok: false, problem: transport.problem } : { ok: true, server: parsed.data };
}
