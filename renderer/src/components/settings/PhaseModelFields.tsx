import type { Phase, RequestPayload } from '../../../../engine/contract/index.js';
import { phaseNames } from '../../../../engine/contract/phaseNames.js';
import { Field } from '../Field.js';
import { ConnectionTest } from './ConnectionTest.js';
import { modelPhases, phaseConnectionTestOf, type PhaseModelDraft, type PhaseModelDrafts } from './phaseModelDraft.js';

interface PhaseModelFieldsProps {
  models: PhaseModelDrafts;
  onChange: (models: PhaseModelDrafts) => void;
  /** Whether this host can store a key (a connection's key is stored like the main one). */
  canStoreKey: boolean;
  /** What the main Test connection asks with, for a phase on another model of the same server. */
  mainTest: () => RequestPayload<'settings:test-connection'>;
}

const phaseHints: Record<Phase, string> = {
  research: 'Reads the folder and writes research.md: a strong reasoning model pays off.',
  plan: 'Writes the plan from the research: a strong reasoning model pays off.',
  implement: 'Many short turns of edits and commands: a faster, cheaper model often does as well.',
  summary: 'One short message at the end.',
};

/** Settings → Models: Research, Plan, Implement and Summary, each on the default model, another model of the server, or a connection of its own. */
export function PhaseModelFields({ models, onChange, canStoreKey, mainTest }: PhaseModelFieldsProps) {
  const change = (phase: Phase) => (patch: Partial<PhaseModelDraft>) => onChange({ ...models, [phase]: { ...models[phase], ...patch } });
  return (
    <fieldset className="settings-group" data-testid="settings-models">
      <legend>Models</legend>
      <p className="hint">Each phase may run on its own model. The model above is the default.</p>
      {modelPhases.map((phase) => (
        <PhaseModelRow key={phase} phase={phase} draft={models[phase]} onChange={change(phase)} canStoreKey={canStoreKey} mainTest={mainTest} />
      ))}
    </fieldset>
  );
}

interface PhaseModelRowProps {
  phase: Phase;
  draft: PhaseModelDraft;
  onChange: (patch: Partial<PhaseModelDraft>) => void;
  canStoreKey: boolean;
  mainTest: () => RequestPayload<'settings:test-connection'>;
}

function PhaseModelRow({ phase, draft, onChange, canStoreKey, mainTest }: PhaseModelRowProps) {
  const text = (field: 'model' | 'baseUrl' | 'apiKey' | 'contextWindow') => (event: { target: { value: string } }) => onChange({ [field]: event.target.value });
  return (
    <div className="phase-model-row" data-testid={`phase-model-${phase}`}>
      <Field label={phaseNames[phase]} hint={phaseHints[phase]}>
        <select value={draft.use} onChange={(event) => onChange({ use: event.target.value as PhaseModelDraft['use'] })}>
          <option value="default">Same as the default</option>
          <option value="model">Another model on the same server</option>
          <option value="connection">Another connection</option>
        </select>
      </Field>
      {draft.use !== 'default' && (
        <div className="phase-model-fields">
          {draft.use === 'connection' && (
            <Field label={`${phaseNames[phase]} base URL`}>
              <input type="url" required value={draft.baseUrl} onChange={text('baseUrl')} placeholder="http://localhost:11434/v1" />
            </Field>
          )}
          <Field label={`${phaseNames[phase]} model`}>
            <input required value={draft.model} onChange={text('model')} placeholder="gpt-4.1-mini" autoComplete="off" />
          </Field>
          {draft.use === 'connection' && (
            <Field label={`${phaseNames[phase]} API key`} hint={draft.apiKeySet && !draft.forgetKey ? 'A key is stored, encrypted, for this connection only.' : 'Sent only to this base URL.'}>
              <input type="password" value={draft.apiKey} onChange={text('apiKey')} disabled={!canStoreKey} autoComplete="off" placeholder={draft.apiKeySet && !draft.forgetKey ? '••••••••' : ''} />
            </Field>
          )}
          {draft.use === 'connection' && draft.apiKeySet && !draft.forgetKey && (
            <button type="button" className="button-quiet align-start" onClick={() => onChange({ forgetKey: true, apiKey: '' })}>
              Forget this connection’s key
            </button>
          )}
          <Field label={`${phaseNames[phase]} context window (tokens)`} hint="Leave empty to learn it from the server for this model.">
            <input type="number" min={1024} step={1} value={draft.contextWindow} onChange={text('contextWindow')} placeholder="Automatic" />
          </Field>
          <ConnectionTest payload={() => phaseConnectionTestOf(phase, draft, mainTest())} onPickModel={(model) => onChange({ model })} testId={`test-connection-${phase}`} />
        </div>
      )}
    </div>
  );
}
