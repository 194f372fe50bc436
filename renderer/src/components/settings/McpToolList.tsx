import type { McpToolView } from '../../../../engine/contract/index.js';

interface McpToolListProps {
  tools: McpToolView[];
  busy: boolean;
  onAllow: (tool: string, allowed: boolean) => void;
}

/** A server's tools with their descriptions, where each is offered, and "always allow". */
export function McpToolList({ tools, busy, onAllow }: McpToolListProps) {
  return (
    <details className="mcp-tools">
      <summary>{tools.length === 1 ? '1 tool' : `${tools.length} tools`}, with their descriptions and “always allow”</summary>
      <ul>
        {tools.map((tool) => (
          <li key={tool.name} className="mcp-tool" data-testid="mcp-tool">
            <div className="mcp-tool-head">
              <code title={`The model calls it ${tool.modelName}`}>{tool.name}</code>
              {tool.readOnly && <span className="mcp-badge">read-only</span>}
              <span className="mcp-badge mcp-badge-phase">{tool.phases.includes('research') ? 'Research, Implement' : 'Implement'}</span>
              <label className="checkbox mcp-allow">
                <input type="checkbox" checked={tool.alwaysAllowed} disabled={busy} onChange={(event) => onAllow(tool.name, event.target.checked)} />
                Always allow
              </label>
            </div>
            {tool.description && <p className="mcp-tool-description">{tool.description}</p>}
          </li>
        ))}
      </ul>
    </details>
  );
}
