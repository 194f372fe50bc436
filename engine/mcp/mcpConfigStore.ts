import type { McpServerInput, McpServerView, McpSettingView } from '../contract/mcp.js';
import { mcpServerInputSchema } from '../contract/mcp.js';
import { isCredentialVariable } from '../secrets/credentialShapes.js';
import type { KnownSecret } from '../secrets/secretMask.js';
import { JsonConfigFile } from '../settings/jsonConfigFile.js';
import type { KeyCipher } from '../settings/keyCipher.js';
import { defaultCallTimeoutSeconds, mcpConfigFileName, mcpConfigSchema, parseStoredServer, serverDefinition, transportOf, type McpConfig, type StoredServer } from './mcpServerConfig.js';

/** How a server is started: a program with stdio, or a Streamable HTTP endpoint. */
export type McpLaunch =
  | { kind: 'stdio'; command: string; args: string[]; /** As configured; empty means the opened folder. */ cwd: string; env: Record<string, string> }
  | { kind: 'http'; url: string; headers: Record<string, string> };

/** One server as the engine runs it: secrets decrypted, or the sentence saying why it cannot run. */
export interface McpServerSpec {
  name: string;
  enabled: boolean;
  researchReadOnly: boolean;
  timeoutMs: number;
  /** What an "always allow" is bound to (serverDefinition). */
  definition: string;
  launch: McpLaunch | null;
  problem?: string;
  /** Values hidden from what the model reads: the server's secret env and headers, and credential-shaped plain ones. */
  secrets: KnownSecret[];
}

/** A configured server without its status, which the hub adds. */
export type McpServerSettings = Omit<McpServerView, 'status'> & { problem?: string };

export interface McpConfigStoreOptions {
  configDir: string;
  /** The host's cipher (OS keychain in the desktop app); hosts without one refuse to store secrets. */
  cipher: KeyCipher;
}

const secretsRefused =
  'Secret values cannot be stored here: there is no OS keychain to encrypt them with. Uncheck "secret" to keep the value in clear in mcp.json, or add the server in the desktop app.';

/**
 * The user's MCP servers in `<configDir>/mcp.json`, never in a project folder (a cloned repository must
 * not be able to start programs). The file is the `mcpServers` shape other clients use, so one can be
 * pasted in; values the user marks secret are stored encrypted by the host's cipher (`envEncrypted`,
 * `headersEncrypted`) and never leave the engine in clear.
 */
export class McpConfigStore {
  private readonly file: JsonConfigFile<McpConfig>;
  private readonly cipher: KeyCipher;

  constructor(options: McpConfigStoreOptions) {
    this.file = new JsonConfigFile(options.configDir, mcpConfigFileName, mcpConfigSchema, () => ({}));
    this.cipher = options.cipher;
  }

  get path(): string {
    return this.file.file;
  }

  secretStorage(): { ok: true } | { ok: false; reason: string } {
    return this.cipher.availability().ok ? { ok: true } : { ok: false, reason: secretsRefused };
  }

  /** Every server as Settings shows it, secrets as "set" only. */
  async servers(): Promise<McpServerSettings[]> {
    return Object.entries(await this.entries()).map(([name, raw]) => settingsOf(name, raw));
  }

  /** Every server as the engine runs it, secrets decrypted; one that cannot run says why. */
  async specs(): Promise<McpServerSpec[]> {
    return Object.entries(await this.entries()).map(([name, raw]) => this.specOf(name, raw));
  }

  /** Adds a server, or replaces the one named `previousName` (renaming it); stored secrets not typed again are kept. */
  async save(input: McpServerInput, previousName?: string): Promise<void> {
    const server = mcpServerInputSchema.parse(input);
    const config = await this.file.read();
    const servers = { ...(config.mcpServers ?? {}) };
    const before = previousName ?? server.name;
    if ((previousName === undefined || server.name !== previousName) && servers[server.name] !== undefined) {
      throw new Error(`A server named "${server.name}" already exists: choose another name, or edit that one.`);
    }
    if (previousName !== undefined && servers[previousName] === undefined) throw new Error(`There is no MCP server named "${previousName}" to change.`);
    const previous = parseStoredServer(servers[before]);
    const kept = previous.ok ? previous.server : {};
    const entry = this.entryOf(server, kept);
    const renamed = Object.fromEntries(Object.entries(servers).map(([name, value]) => (name === before ? [server.name, entry] : [name, value])));
    await this.file.write({ ...config, mcpServers: before in servers ? renamed : { ...servers, [server.name]: entry } });
  }

  async remove(name: string): Promise<void> {
    const config = await this.file.read();
    const servers = { ...(config.mcpServers ?? {}) };
    if (!(name in servers)) throw new Error(`There is no MCP server named "${name}".`);
    delete servers[name];
    await this.file.write({ ...config, mcpServers: servers });
  }

  async setEnabled(name: string, enabled: boolean): Promise<void> {
    const config = await this.file.read();
    const raw = config.mcpServers?.[name];
    if (raw === undefined) throw new Error(`There is no MCP server named "${name}".`);
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new Error(`The entry of "${name}" in mcp.json is not an object: fix it in the file.`);
    const { disabled: _, ...rest } = raw as Record<string, unknown>;
    await this.file.write({ ...config, mcpServers: { ...config.mcpServers, [name]: enabled ? rest : { ...rest, disabled: true } } });
  }

  private async entries(): Promise<Record<string, unknown>> {
    return (await this.file.read()).mcpServers ?? {};
  }

  /** The stored entry for a saved form: `kept`'s other keys stay, its secrets are kept where none was typed. */
  private entryOf(server: ReturnType<typeof mcpServerInputSchema.parse>, kept: StoredServer): StoredServer {
    const { command: _c, args: _a, env: _e, envEncrypted: _ee, cwd: _w, url: _u, headers: _h, headersEncrypted: _he, disabled: _d, researchReadOnly: _r, timeoutSeconds: _t, ...others } = kept;
    const entry: StoredServer = { ...others };
    if (server.transport === 'stdio') {
      if (entry.type !== undefined) entry.type = 'stdio';
      entry.command = server.command ?? '';
      entry.args = server.args;
      if (server.cwd) entry.cwd = server.cwd;
      Object.assign(entry, this.values('env', server.env, kept.env, kept.envEncrypted));
    } else {
      entry.type = 'http';
      entry.url = server.url ?? '';
      Object.assign(entry, this.values('headers', server.headers, kept.headers, kept.headersEncrypted));
    }
    if (!server.enabled) entry.disabled = true;
    if (server.researchReadOnly) entry.researchReadOnly = true;
    if (server.timeoutSeconds !== defaultCallTimeoutSeconds) entry.timeoutSeconds = server.timeoutSeconds;
    return entry;
  }

  /** Plain values in `field`, secret ones encrypted in `<field>Encrypted`; each secret typed anew, else kept. */
  private values(
    field: 'env' | 'headers',
    typed: readonly { name: string; value?: string | undefined; secret: boolean }[],
    plainBefore: Record<string, string> = {},
    sealedBefore: Record<string, string> = {},
  ): Partial<StoredServer> {
    const plain: Record<string, string> = {};
    const sealed: Record<string, string> = {};
    const what = field === 'env' ? 'variable' : 'header';
    for (const { name, value, secret } of typed) {
      if (!secret) {
        if (value === undefined) throw new Error(`Type the value of the ${what} ${name} again to store it in clear.`);
        plain[name] = value;
      } else if (value !== undefined) {
        sealed[name] = this.seal(value);
      } else if (sealedBefore[name] !== undefined) {
        sealed[name] = sealedBefore[name];
      } else if (plainBefore[name] !== undefined) {
        sealed[name] = this.seal(plainBefore[name]);
      } else {
        throw new Error(`Type the value of the secret ${what} ${name}.`);
      }
    }
    const result: Partial<StoredServer> = {};
    if (Object.keys(plain).length > 0) result[field] = plain;
    if (Object.keys(sealed).length > 0) result[field === 'env' ? 'envEncrypted' : 'headersEncrypted'] = sealed;
    return result;
  }

  private seal(value: string): string {
    if (!this.cipher.availability().ok) throw new Error(secretsRefused);
    return this.cipher.encrypt(value).toString('base64');
  }

  private specOf(name: string, raw: unknown): McpServerSpec {
    const parsed = parseStoredServer(raw);
    const stored = parsed.ok ? parsed.server : {};
    const base = {
      name,
      enabled: stored.disabled !== true,
      researchReadOnly: stored.researchReadOnly === true,
      timeoutMs: (stored.timeoutSeconds ?? defaultCallTimeoutSeconds) * 1000,
      definition: serverDefinition(stored),
    };
    if (!parsed.ok) return { ...base, launch: null, problem: `The settings of "${name}" in mcp.json cannot be used: ${parsed.problem}`, secrets: [] };
    try {
      const secrets: KnownSecret[] = [];
      const open = (field: 'env' | 'headers', plain: Record<string, string> = {}, sealed: Record<string, string> = {}) => {
        const values: Record<string, string> = { ...plain };
        for (const [key, value] of Object.entries(plain)) if (isCredentialVariable(key, value)) secrets.push({ name: `${name} ${key}`, value });
        for (const [key, data] of Object.entries(sealed)) {
          values[key] = this.unseal(name, field, key, data);
          secrets.push({ name: `${name} ${key}`, value: values[key] });
        }
        return values;
      };
      const launch: McpLaunch =
        transportOf(stored).kind === 'http'
          ? { kind: 'http', url: stored.url ?? '', headers: open('headers', stored.headers, stored.headersEncrypted) }
          : { kind: 'stdio', command: stored.command ?? '', args: stored.args ?? [], cwd: stored.cwd ?? '', env: open('env', stored.env, stored.envEncrypted) };
      return { ...base, launch, secrets };
    } catch (error) {
      return { ...base, launch: null, problem: error instanceof Error ? error.message : String(error), secrets: [] };
    }
  }

  private unseal(server: string, field: 'env' | 'headers', key: string, data: string): string {
    try {
      return this.cipher.decrypt(Buffer.from(data, 'base64'));
    } catch {
      const what = field === 'env' ? `environment variable ${key}` : `header ${key}`;
      throw new Error(
        `"${server}" cannot start here: its secret ${what} is stored encrypted with the desktop app's OS keychain, which this program cannot read. ` +
          `Start it from the desktop app, or put the value in "${field}" of mcp.json yourself.`,
      );
    }
  }
}

/** A stored entry as Settings shows it; an entry that cannot be used still shows, with its problem. */
function settingsOf(name: string, raw: unknown): McpServerSettings {
  const parsed = parseStoredServer(raw);
  const stored: StoredServer = parsed.ok ? parsed.server : looselyRead(raw);
  const view = (plain: Record<string, string> = {}, sealed: Record<string, string> = {}): McpSettingView[] => [
    ...Object.entries(plain).map(([key, value]) => ({ name: key, value, secret: false })),
    ...Object.keys(sealed).map((key) => ({ name: key, value: null, secret: true })),
  ];
  return {
    name,
    transport: transportOf(stored).kind === 'http' ? 'http' : 'stdio',
    command: stored.command ?? '',
    args: stored.args ?? [],
    cwd: stored.cwd ?? '',
    env: view(stored.env, stored.envEncrypted),
    url: stored.url ?? '',
    headers: view(stored.headers, stored.headersEncrypted),
    enabled: stored.disabled !== true,
    researchReadOnly: stored.researchReadOnly === true,
    timeoutSeconds: stored.timeoutSeconds ?? defaultCallTimeoutSeconds,
    ...(parsed.ok ? {} : { problem: `The settings of "${name}" in mcp.json cannot be used: ${parsed.problem}` }),
  };
}

/** What can be read of an entry that does not fit the schema, for showing it. */
function looselyRead(raw: unknown): StoredServer {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return {};
  const value = raw as Record<string, unknown>;
  const text = (key: string) => (typeof value[key] === 'string' ? value[key] : undefined);
  return { ...(text('command') ? { command: text('command') } : {}), ...(text('url') ? { url: text('url') } : {}), ...(text('type') ? { type: text('type') } : {}) };
}
