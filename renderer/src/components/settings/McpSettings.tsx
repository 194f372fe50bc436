import { useEffect, useState } from 'react';
import type { McpOverview, McpServerView, RequestPayload, Response } from '../../../../engine/contract/index.js';
import { useWorkbench } from '../../store/StoreContext.js';
import type { McpChannel } from '../../store/workbenchStore.js';
import { McpServerCard } from './McpServerCard.js';
import { McpServerForm } from './McpServerForm.js';
import './mcp.css';

/** Which server the form is open for: a new one, or the one with this name. */
type Editing = { kind: 'new' } | { kind: 'edit'; name: string } | null;

/**
 * Settings → MCP servers: the servers of mcp.json with their live status (starting, ready with their
 * tools, failed with the server's stderr), and adding, editing, enabling, restarting and removing them.
 */
export function McpSettings() {
  const mcp = useWorkbench((state) => state.mcp);
  const live = useWorkbench((state) => state.mcpStatus);
  const [overview, setOverview] = useState<McpOverview | null>(null);
  const [editing, setEditing] = useState<Editing>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let current = true;
    void mcp('mcp:list', {}).then((response) => {
      if (!current) return;
      if (response.ok) setOverview(response.value);
      else setError(response.error);
    });
    return () => {
      current = false;
    };
  }, [mcp]);

  /** Sends a request; its answer is the new overview, or an error shown here. True when it succeeded. */
  const act = async <C extends McpChannel>(channel: C, payload: RequestPayload<C>): Promise<boolean> => {
    setBusy(true);
    const response = (await mcp(channel, payload)) as Response<'mcp:list'>;
    setBusy(false);
    if (!response.ok) {
      setError(response.error);
      return false;
    }
    setError(null);
    setOverview(response.value);
    return true;
  };

  if (!overview) {
    return (
      <section className="mcp-settings" data-testid="mcp-settings">
        {error ? <p className="form-error" role="alert">{error}</p> : <p className="muted">Loading the MCP servers…</p>}
      </section>
    );
  }
  // Events carry newer news of a running server than the list it answered with.
  const withLive = (server: McpServerView): McpServerView => {
    const news = overview.folderOpen ? live[server.name] : undefined;
    return news && news.updatedAt >= server.status.updatedAt ? { ...server, status: news } : server;
  };

  return (
    <section className="mcp-settings" data-testid="mcp-settings" aria-label="MCP servers">
      <p className="hint">
        Tools of your Model Context Protocol servers, offered to the agent as <code>mcp__server__tool</code>: in Implement, and in Research too for the read-only
        tools of a server you allow there. Every call asks for your approval unless you always allow that tool. Kept in <code>{overview.configFile}</code>, in the{' '}
        <code>mcpServers</code> format other MCP clients use. {overview.folderOpen ? 'They run while this folder is open, in it.' : 'They start when you open a folder.'}
      </p>
      {!overview.canStoreSecrets && overview.secretStorageNote && <p className="hint mcp-note">{overview.secretStorageNote}</p>}
      {overview.servers.length === 0 && editing?.kind !== 'new' && <p className="muted">No MCP servers yet.</p>}
      <ul className="mcp-servers">
        {overview.servers.map((server) =>
          editing?.kind === 'edit' && editing.name === server.name ? (
            <li key={server.name} className="mcp-server">
              <McpServerForm
                server={server}
                canStoreSecrets={overview.canStoreSecrets}
                busy={busy}
                onSave={async (input) => (await act('mcp:save', { server: input, previousName: server.name })) && setEditing(null)}
                onCancel={() => setEditing(null)}
              />
            </li>
          ) : (
            <McpServerCard
              key={server.name}
              server={withLive(server)}
              folderOpen={overview.folderOpen}
              busy={busy}
              onEdit={() => setEditing({ kind: 'edit', name: server.name })}
              onEnable={(enabled) => void act('mcp:set-enabled', { name: server.name, enabled })}
              onRestart={() => void act('mcp:restart', { name: server.name })}
              onRemove={() => void act('mcp:remove', { name: server.name })}
              onAllowTool={(tool, allowed) => void act('mcp:allow-tool', { server: server.name, tool, allowed })}
            />
          ),
        )}
      </ul>
      {editing?.kind === 'new' ? (
        <div className="mcp-server">
          <McpServerForm
            canStoreSecrets={overview.canStoreSecrets}
            busy={busy}
            onSave={async (input) => (await act('mcp:save', { server: input })) && setEditing(null)}
            onCancel={() => setEditing(null)}
          />
        </div>
      ) : (
        <button type="button" className="align-start" disabled={busy || editing !== null} onClick={() => setEditing({ kind: 'new' })}>
          Add server
        </button>
      )}
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
