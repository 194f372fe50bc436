import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { PublicSettings } from '../../../engine/contract/index.js';
import { useWorkbench } from '../store/StoreContext.js';
import { Field } from './Field.js';
import { ApprovalFields } from './settings/ApprovalFields.js';
import { ConnectionTest } from './settings/ConnectionTest.js';
import { CostFields } from './settings/CostFields.js';
import { FolderCheckField, useFolderCheck } from './settings/FolderCheckField.js';
import { McpSettings } from './settings/McpSettings.js';
import { PhaseModelFields } from './settings/PhaseModelFields.js';
import { connectionTestOf, draftOf, patchOf, type SettingsDraft } from './settings/settingsDraft.js';
import { useModalDialog } from './useModalDialog.js';

const keyStatus: Record<PublicSettings['apiKeySource'], string> = {
  stored: 'A key is stored, encrypted. Type a new one to replace it.',
  environment: 'Using OPENAI_API_KEY from the environment.',
  none: 'No key set. Local servers (Ollama, LM Studio) usually need none.',
};

type SettingsTab = 'general' | 'mcp';

/** The model connection and approval settings, and the MCP servers, in a modal dialog (Esc closes it). */
export function SettingsDialog({ onClose }: { onClose: () => void }) {
  const settings = useWorkbench((state) => state.settings);
  const host = useWorkbench((state) => state.host);
  const save = useWorkbench((state) => state.saveSettings);
  const dialog = useModalDialog();
  const [draft, setDraft] = useState<SettingsDraft>(() => draftOf(settings));
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [tab, setTab] = useState<SettingsTab>('general');
  const folderCheck = useFolderCheck();
  const firstField = useRef<HTMLInputElement>(null);
  // The dialog opens on its first field, not on the section tabs above it.
  useEffect(() => firstField.current?.focus(), []);

  const change = (patch: Partial<SettingsDraft>) => setDraft((current) => ({ ...current, ...patch }));
  const text = (field: 'baseUrl' | 'model' | 'apiKey' | 'contextWindow' | 'retries') => (event: { target: { value: string } }) => change({ [field]: event.target.value });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSaving(true);
    const failure = (await save(patchOf(draft))) ?? (await folderCheck.save());
    setSaving(false);
    if (failure) setError(failure);
    else onClose();
  };
  const forgetKey = async () => setError(await save({ apiKey: null }));

  return (
    <dialog ref={dialog} className={`dialog settings${tab === 'mcp' ? ' settings-wide' : ''}`} aria-labelledby="settings-title" data-testid="settings-dialog" onClose={onClose}>
      <h2 id="settings-title">Settings</h2>
      <div className="settings-tabs" role="tablist" aria-label="Settings sections">
        <button type="button" role="tab" aria-selected={tab === 'general'} onClick={() => setTab('general')}>
          Model and approvals
        </button>
        <button type="button" role="tab" aria-selected={tab === 'mcp'} data-testid="settings-tab-mcp" onClick={() => setTab('mcp')}>
          MCP servers
        </button>
      </div>
      {tab === 'mcp' && (
        <>
          <McpSettings />
          <div className="row row-end">
            <button type="button" onClick={onClose}>
              Close
            </button>
          </div>
        </>
      )}
      <form onSubmit={(event) => void submit(event)} hidden={tab !== 'general'}>
        <Field label="Base URL" hint="Any OpenAI-compatible server, e.g. http://localhost:11434/v1 for Ollama.">
          <input ref={firstField} type="url" required value={draft.baseUrl} onChange={text('baseUrl')} placeholder="https://api.openai.com/v1" />
        </Field>
        <Field label="Model">
          <input required value={draft.model} onChange={text('model')} placeholder="gpt-4.1-mini" autoComplete="off" />
        </Field>
        <Field label="API key" hint={host?.canStoreApiKey ? keyStatus[settings?.apiKeySource ?? 'none'] : host?.apiKeyStorageNote}>
          <input
            type="password"
            value={draft.apiKey}
            onChange={text('apiKey')}
            disabled={!host?.canStoreApiKey}
            autoComplete="off"
            placeholder={settings?.apiKeySet ? '••••••••' : ''}
          />
        </Field>
        {settings?.apiKeySource === 'stored' && (
          <button type="button" className="button-quiet align-start" onClick={() => void forgetKey()}>
            Forget stored key
          </button>
        )}
        <ConnectionTest payload={() => connectionTestOf(draft)} onPickModel={(model) => change({ model })} />
        <Field label="Context window (tokens)" hint="Leave empty to learn it from the server (Test connection shows it).">
          <input type="number" min={1024} step={1} value={draft.contextWindow} onChange={text('contextWindow')} placeholder="Automatic" />
        </Field>
        <Field label="Tool calling">
          <select value={draft.toolMode} onChange={(event) => change({ toolMode: event.target.value as SettingsDraft['toolMode'] })}>
            <option value="auto">Automatic</option>
            <option value="native">Native tool calls</option>
            <option value="text">Text protocol (models without tool calling)</option>
          </select>
        </Field>
        <Field label="Retries" hint="How often a failed model call (429, 5xx, a dropped or stalled stream) is tried again, waiting 1, 2, 4, 8 s… or what the server asks.">
          <input type="number" min={0} max={10} step={1} value={draft.retries} onChange={text('retries')} />
        </Field>
        <PhaseModelFields models={draft.models} onChange={(models) => change({ models })} canStoreKey={Boolean(host?.canStoreApiKey)} mainTest={() => connectionTestOf(draft)} />
        <CostFields draft={draft} onChange={change} />
        <ApprovalFields draft={draft} onChange={change} />
        <FolderCheckField draft={folderCheck} />
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        <div className="row row-end">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button-primary" disabled={saving}>
            {saving ? 'Saving…' : 'Save'}
          </button>
        </div>
      </form>
    </dialog>
  );
}
