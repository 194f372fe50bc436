import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { PublicSettings, RequestPayload } from '../../../engine/contract/index.js';
import { useWorkbench } from '../store/StoreContext.js';
import { Field } from './Field.js';

type Draft = Pick<PublicSettings, 'baseUrl' | 'model' | 'toolMode'> & { contextWindow: string; apiKey: string };

const keyStatus: Record<PublicSettings['apiKeySource'], string> = {
  stored: 'A key is stored, encrypted. Type a new one to replace it.',
  environment: 'Using OPENAI_API_KEY from the environment.',
  none: 'No key set. Local servers (Ollama, LM Studio) usually need none.',
};

/** Model connection settings, in a modal dialog (Esc closes it). */
export function SettingsDialog({ onClose }: { onClose: () => void }) {
  const settings = useWorkbench((state) => state.settings);
  const host = useWorkbench((state) => state.host);
  const save = useWorkbench((state) => state.saveSettings);
  const dialog = useRef<HTMLDialogElement>(null);
  const [draft, setDraft] = useState<Draft>(() => toDraft(settings));
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    dialog.current?.showModal();
  }, []);

  const update = (field: keyof Draft) => (event: { target: { value: string } }) => setDraft({ ...draft, [field]: event.target.value });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSaving(true);
    const failure = await save(toPatch(draft));
    setSaving(false);
    if (failure) setError(failure);
    else onClose();
  };
  const forgetKey = async () => {
    const failure = await save({ apiKey: null });
    setError(failure);
  };

  return (
    <dialog ref={dialog} className="settings" aria-labelledby="settings-title" onClose={onClose}>
      <form onSubmit={(event) => void submit(event)}>
        <h2 id="settings-title">Settings</h2>
        <Field label="Base URL" hint="Any OpenAI-compatible server, e.g. http://localhost:11434/v1 for Ollama.">
          <input type="url" required value={draft.baseUrl} onChange={update('baseUrl')} placeholder="https://api.openai.com/v1" />
        </Field>
        <Field label="Model">
          <input required value={draft.model} onChange={update('model')} placeholder="gpt-4.1-mini" autoComplete="off" />
        </Field>
        <Field label="API key" hint={host?.canStoreApiKey ? keyStatus[settings?.apiKeySource ?? 'none'] : host?.apiKeyStorageNote}>
          <input
            type="password"
            value={draft.apiKey}
            onChange={update('apiKey')}
            disabled={!host?.canStoreApiKey}
            autoComplete="off"
            placeholder={settings?.apiKeySet ? '••••••••' : ''}
          />
        </Field>
        {settings?.apiKeySource === 'stored' && (
          <button type="button" className="button-quiet" onClick={() => void forgetKey()}>
            Forget stored key
          </button>
        )}
        <Field label="Context window (tokens)">
          <input type="number" min={1024} step={1024} required value={draft.contextWindow} onChange={update('contextWindow')} />
        </Field>
        <Field label="Tool calling">
          <select value={draft.toolMode} onChange={update('toolMode')}>
            <option value="auto">Automatic</option>
            <option value="native">Native tool calls</option>
            <option value="text">Text protocol (models without tool calling)</option>
          </select>
        </Field>
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

function toDraft(settings: PublicSettings | null): Draft {
  return {
    baseUrl: settings?.baseUrl ?? '',
    model: settings?.model ?? '',
    toolMode: settings?.toolMode ?? 'auto',
    contextWindow: String(settings?.contextWindow ?? 128_000),
    apiKey: '',
  };
}

function toPatch(draft: Draft): RequestPayload<'settings:set'> {
  const patch: RequestPayload<'settings:set'> = {
    baseUrl: draft.baseUrl.trim(),
    model: draft.model.trim(),
    toolMode: draft.toolMode,
    contextWindow: Number(draft.contextWindow),
  };
  if (draft.apiKey.trim()) patch.apiKey = draft.apiKey.trim();
  return patch;
}
