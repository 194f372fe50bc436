import type { McpServerInput, McpServerState, McpServerStatus, McpServerView, McpSettingView } from '../../../../engine/contract/index.js';

/** One environment variable or header row of the form. */
export interface SettingRow {
  /** React key of the row. */
  key: string;
  name: string;
  /** Typed value; for a stored secret, empty means "keep the stored one". */
  value: string;
  secret: boolean;
  /** A secret is stored for this name: its value never comes to the page. */
  stored: boolean;
}

/** The add/edit form of one server, as typed. */
export interface McpServerDraft {
  name: string;
  transport: 'stdio' | 'http';
  command: string;
  /** One argument per line. */
  args: string;
  cwd: string;
  env: SettingRow[];
  url: string;
  headers: SettingRow[];
  enabled: boolean;
  researchReadOnly: boolean;
  timeoutSeconds: string;
}

let rows = 0;
const rowKey = () => `row-${(rows += 1)}`;

export function newRow(): SettingRow {
  return { key: rowKey(), name: '', value: '', secret: false, stored: false };
}

function rowOf(setting: McpSettingView): SettingRow {
  return { key: rowKey(), name: setting.name, value: setting.value ?? '', secret: setting.secret, stored: setting.value === null };
}

export function draftOf(server?: McpServerView): McpServerDraft {
  return {
    name: server?.name ?? '',
    transport: server?.transport ?? 'stdio',
    command: server?.command ?? '',
    args: server?.args.join('\n') ?? '',
    cwd: server?.cwd ?? '',
    env: server?.env.map(rowOf) ?? [],
    url: server?.url ?? '',
    headers: server?.headers.map(rowOf) ?? [],
    enabled: server?.enabled ?? true,
    researchReadOnly: server?.researchReadOnly ?? false,
    timeoutSeconds: String(server?.timeoutSeconds ?? 120),
  };
}

/** The mcp:save payload of a draft: a stored secret left empty is kept; rows without a name are dropped. */
export function inputOf(draft: McpServerDraft): McpServerInput {
  const settings = (list: SettingRow[]) =>
    list
      .filter((row) => row.name.trim() !== '')
      .map((row) => (row.secret && row.stored && row.value === '' ? { name: row.name.trim(), secret: true } : { name: row.name.trim(), value: row.value, secret: row.secret }));
  const common = { name: draft.name.trim(), enabled: draft.enabled, researchReadOnly: draft.researchReadOnly, timeoutSeconds: Number(draft.timeoutSeconds) };
  if (draft.transport === 'http') return { ...common, transport: 'http', url: draft.url.trim(), headers: settings(draft.headers) };
  const args = draft.args.split('\n').map((arg) => arg.trim()).filter((arg) => arg !== '');
  return { ...common, transport: 'stdio', command: draft.command.trim(), args, ...(draft.cwd.trim() ? { cwd: draft.cwd.trim() } : {}), env: settings(draft.env) };
}

/** Names that usually hold a credential: their value is stored as a secret unless the user says otherwise. */
export function looksSecret(name: string): boolean {
  return /(token|secret|passw|api[_-]?key|access[_-]?key|private[_-]?key|auth|cookie|credential|^key$|_key$)/i.test(name);
}

const stateWords: Record<McpServerState, string> = {
  disabled: 'Disabled',
  idle: 'Starts when a folder is open',
  starting: 'Starting…',
  ready: 'Ready',
  failed: 'Failed',
  stopped: 'Stopped: starts again on its next call',
};

/** "Ready · 14 tools", "Failed", "Starting…". */
export function stateLabel(status: McpServerStatus): string {
  if (status.state !== 'ready') return stateWords[status.state];
  return `Ready · ${status.tools.length === 1 ? '1 tool' : `${status.tools.length} tools`}`;
}

/** How a server is reached, in one line: its command line, or its URL. */
export function launchLine(server: McpServerView): string {
  if (server.transport === 'http') return server.url;
  return [server.command, ...server.args.map((arg) => (/[\s"']/.test(arg) ? JSON.stringify(arg) : arg))].join(' ');
}
