import { looksSecret, newRow, type SettingRow } from './mcpDraft.js';

interface McpSettingRowsProps {
  legend: string;
  /** "variable" or "header", for the labels of each row. */
  noun: string;
  rows: SettingRow[];
  canStoreSecrets: boolean;
  onChange: (rows: SettingRow[]) => void;
}

/** Name/value rows (environment variables or headers); a secret one is stored encrypted and never shown again. */
export function McpSettingRows({ legend, noun, rows, canStoreSecrets, onChange }: McpSettingRowsProps) {
  const update = (key: string, patch: Partial<SettingRow>) => onChange(rows.map((row) => (row.key === key ? { ...row, ...patch } : row)));
  const rename = (row: SettingRow, name: string) =>
    // A new row is a secret by default when its name says it holds a credential.
    update(row.key, { name, ...(row.stored || row.value !== '' || !canStoreSecrets ? {} : { secret: looksSecret(name) }) });
  return (
    <fieldset className="mcp-rows">
      <legend>{legend}</legend>
      {rows.map((row, index) => (
        <div key={row.key} className="mcp-row">
          <input aria-label={`${noun} ${index + 1} name`} placeholder="NAME" value={row.name} onChange={(event) => rename(row, event.target.value)} autoComplete="off" />
          <input
            aria-label={`${noun} ${index + 1} value`}
            type={row.secret ? 'password' : 'text'}
            placeholder={row.stored ? 'stored encrypted: type to replace' : 'value'}
            value={row.value}
            onChange={(event) => update(row.key, { value: event.target.value })}
            autoComplete="off"
          />
          <label className="checkbox" title={canStoreSecrets || row.stored ? 'Stored encrypted with the OS keychain, never shown again' : 'No OS keychain here to encrypt it with'}>
            <input type="checkbox" checked={row.secret} disabled={!canStoreSecrets && !row.secret} onChange={(event) => update(row.key, { secret: event.target.checked })} />
            secret
          </label>
          <button type="button" className="button-quiet button-small" aria-label={`Remove ${noun} ${row.name || index + 1}`} onClick={() => onChange(rows.filter((other) => other.key !== row.key))}>
            ✕
          </button>
        </div>
      ))}
      <button type="button" className="button-small align-start" onClick={() => onChange([...rows, newRow()])}>
        Add {noun}
      </button>
    </fieldset>
  );
}
