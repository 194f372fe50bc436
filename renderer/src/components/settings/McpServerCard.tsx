import { useState } from 'react';
import type { McpServerView } from '../../../../engine/contract/index.js';
import { launchLine, stateLabel } from './mcpDraft.js';
import { McpToolList } from './McpToolList.js';

interface McpServerCardProps {
  server: McpServerView;
  folderOpen: boolean;
  busy: boolean;
  onEdit: () => void;
  onEnable: (enabled: boolean) => void;
  onRestart: () => void;
  onRemove: () => void;
  onAllowTool: (tool: string, allowed: boolean) => void;
}

/** One server: enabled or not, how it is reached, its status with what went wrong, and its tools. */
export function McpServerCard({ server, folderOpen, busy, onEdit, onEnable, onRestart, onRemove, onAllowTool }: McpServerCardProps) {
  const [confirming, setConfirming] = useState(false);
  const { status } = server;
  return (
    <li className="mcp-server" data-testid="mcp-server" data-name={server.name} data-state={status.state}>
      <div className="mcp-server-head">
        <label className="checkbox mcp-server-name">
          <input type="checkbox" checked={server.enabled} disabled={busy} onChange={(event) => onEnable(event.target.checked)} aria-label={`Enable ${server.name}`} />
          <strong>{server.name}</strong>
        </label>
        <span className={`mcp-state mcp-state-${status.state}`} data-testid="mcp-state" role="status">
          {stateLabel(status)}
        </span>
        <span className="mcp-server-actions">
          {folderOpen && server.enabled && status.state !== 'disabled' && (
            <button type="button" className="button-quiet button-small" disabled={busy || status.state === 'starting'} onClick={onRestart}>
              Restart
            </button>
          )}
          <button type="button" className="button-quiet button-small" disabled={busy} onClick={onEdit}>
            Edit
          </button>
          <button type="button" className="button-quiet button-small" disabled={busy} onClick={() => setConfirming(true)}>
            Remove
          </button>
        </span>
      </div>
      <p className="mcp-launch">
        <span className="mcp-transport">{server.transport === 'http' ? 'HTTP' : 'stdio'}</span> <code>{launchLine(server)}</code>
        {status.serverInfo && <span className="muted"> · {status.serverInfo}</span>}
        {server.researchReadOnly && <span className="muted"> · read-only tools in Research</span>}
      </p>
      {confirming && (
        <div className="mcp-confirm" role="alertdialog" aria-label={`Remove ${server.name}?`}>
          <span>Remove {server.name} from mcp.json? Its always-allowed tools ask again if you add it back.</span>
          <button type="button" className="button-danger button-small" disabled={busy} onClick={onRemove}>
            Remove
          </button>
          <button type="button" className="button-small" onClick={() => setConfirming(false)}>
            Cancel
          </button>
        </div>
      )}
      {status.error && (
        <p className="form-error mcp-error" data-testid="mcp-error">
          {status.error}
        </p>
      )}
      {status.stderrTail && (
        <div className="mcp-stderr">
          <span className="hint">Its last output on stderr</span>
          <pre data-testid="mcp-stderr">{status.stderrTail}</pre>
        </div>
      )}
      {status.tools.length > 0 && <McpToolList tools={status.tools} busy={busy} onAllow={onAllowTool} />}
    </li>
  );
}
