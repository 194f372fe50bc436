import { useState, type FormEvent } from 'react';
import type { McpServerInput, McpServerView } from '../../../../engine/contract/index.js';
import { mcpServerNamePattern } from '../../../../engine/contract/mcpToolName.js';
import { Field } from '../Field.js';
import { draftOf, inputOf, type McpServerDraft } from './mcpDraft.js';
import { McpSettingRows } from './McpSettingRows.js';

interface McpServerFormProps {
  /** The server to edit; a new one when absent. */
  server?: McpServerView;
  canStoreSecrets: boolean;
  busy: boolean;
  onSave: (input: McpServerInput) => Promise<unknown>;
  onCancel: () => void;
}

/** Adds or edits one server: a program started over stdio, or a Streamable HTTP endpoint. */
export function McpServerForm({ server, canStoreSecrets, busy, onSave, onCancel }: McpServerFormProps) {
  const [draft, setDraft] = useState<McpServerDraft>(() => draftOf(server));
  const change = (patch: Partial<McpServerDraft>) => setDraft((current) => ({ ...current, ...patch }));
  const text = (field: 'name' | 'command' | 'args' | 'cwd' | 'url' | 'timeoutSeconds') => (event: { target: { value: string } }) => change({ [field]: event.target.value });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void onSave(inputOf(draft));
  };

  return (
    <form className="mcp-form" data-testid="mcp-form" onSubmit={submit} aria-label={server ? `Edit ${server.name}` : 'Add an MCP server'}>
      <Field label="Name" hint="Letters, digits, _ - . — the model sees it in the tool names (mcp__name__tool).">
        <input required value={draft.name} onChange={text('name')} pattern={mcpServerNamePattern.source} placeholder="github" autoComplete="off" />
      </Field>
      <Field label="Transport">
        <select value={draft.transport} onChange={(event) => change({ transport: event.target.value as McpServerDraft['transport'] })}>
          <option value="stdio">A program on this computer (stdio)</option>
          <option value="http">A server at a URL (Streamable HTTP)</option>
        </select>
      </Field>
      {draft.transport === 'stdio' ? (
        <>
          <Field label="Command" hint="Started with the opened folder as its working folder, without your credentials unless you add them below.">
            <input required value={draft.command} onChange={text('command')} placeholder="npx" autoComplete="off" />
          </Field>
          <Field label="Arguments" hint="One per line.">
            <textarea rows={3} value={draft.args} onChange={text('args')} placeholder={'-y\n@modelcontextprotocol/server-github'} />
          </Field>
          <Field label="Working folder" hint="Empty: the opened folder. A relative path is taken from it.">
            <input value={draft.cwd} onChange={text('cwd')} placeholder="The opened folder" autoComplete="off" />
          </Field>
          <McpSettingRows legend="Environment" noun="variable" rows={draft.env} canStoreSecrets={canStoreSecrets} onChange={(env) => change({ env })} />
        </>
      ) : (
        <>
          <Field label="URL">
            <input type="url" required value={draft.url} onChange={text('url')} placeholder="https://mcp.example.com/mcp" autoComplete="off" />
          </Field>
          <McpSettingRows legend="Headers" noun="header" rows={draft.headers} canStoreSecrets={canStoreSecrets} onChange={(headers) => change({ headers })} />
        </>
      )}
      <label className="checkbox">
        <input type="checkbox" checked={draft.researchReadOnly} onChange={(event) => change({ researchReadOnly: event.target.checked })} />
        Offer its read-only tools in Research too
      </label>
      <Field label="Call timeout (seconds)" hint="A call still running after this is cancelled (a stdio server is restarted).">
        <input type="number" min={5} max={3600} step={1} required value={draft.timeoutSeconds} onChange={text('timeoutSeconds')} />
      </Field>
      <label className="checkbox">
        <input type="checkbox" checked={draft.enabled} onChange={(event) => change({ enabled: event.target.checked })} />
        Enabled
      </label>
      <div className="row row-end">
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="button-primary" disabled={busy}>
          {busy ? 'Saving…' : server ? 'Save server' : 'Add server'}
        </button>
      </div>
    </form>
  );
}
