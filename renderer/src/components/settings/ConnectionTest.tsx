import { useState } from 'react';
import type { RequestPayload, RequestResults } from '../../../../engine/contract/index.js';
import { useWorkbench } from '../../store/StoreContext.js';

type Outcome =
  | { state: 'idle' | 'testing' }
  | { state: 'listed'; listing: RequestResults['settings:test-connection']; model: string | undefined }
  | { state: 'failed'; error: string };

interface ConnectionTestProps {
  /** The form's current, unsaved values to test with. */
  payload: () => RequestPayload<'settings:test-connection'>;
  onPickModel: (model: string) => void;
  /** Names the button and its result apart from the other connections' (the Models section has one per phase). */
  testId?: string;
}

/** "Test connection": lists the server's models with the unsaved settings, or says exactly what failed. */
export function ConnectionTest({ payload, onPickModel, testId = 'test-connection' }: ConnectionTestProps) {
  const testConnection = useWorkbench((state) => state.testConnection);
  const [outcome, setOutcome] = useState<Outcome>({ state: 'idle' });

  const test = async () => {
    setOutcome({ state: 'testing' });
    const request = payload();
    const response = await testConnection(request);
    setOutcome(response.ok ? { state: 'listed', listing: response.value, model: request.model } : { state: 'failed', error: response.error });
  };

  return (
    <div className="connection-test">
      <button type="button" data-testid={testId} disabled={outcome.state === 'testing'} onClick={() => void test()}>
        {outcome.state === 'testing' ? 'Testing…' : 'Test connection'}
      </button>
      {outcome.state === 'failed' && (
        <p className="form-error" role="alert" data-testid="connection-result" data-ok="false">
          {outcome.error}
        </p>
      )}
      {outcome.state === 'listed' && <ModelListing {...outcome} onPickModel={onPickModel} />}
    </div>
  );
}

interface ModelListingProps {
  listing: RequestResults['settings:test-connection'];
  model: string | undefined;
  onPickModel: (model: string) => void;
}

function ModelListing({ listing, model, onPickModel }: ModelListingProps) {
  const { models, modelFound, contextWindow } = listing;
  const count = models.length === 1 ? '1 model' : `${models.length} models`;
  const verdict = modelFound === null ? 'Pick one as the model.' : modelFound ? `“${model}” is among them.` : `“${model}” is not among them: pick one, or check its spelling.`;
  return (
    <div className="connection-result" role="status" data-testid="connection-result" data-ok="true" data-model-found={String(modelFound)}>
      <p className={modelFound === false ? 'result-warn' : 'result-ok'}>
        Connected: the server lists {count}. {models.length > 0 && verdict}
      </p>
      {contextWindow && (
        <p data-testid="context-window" data-source={contextWindow.source}>
          Context window: {contextWindow.tokens.toLocaleString('en-US')} tokens (from {contextWindow.detail})
        </p>
      )}
      {contextWindow?.warning && <p className="result-warn">{contextWindow.warning}</p>}
      {models.length > 0 && (
        <ul className="model-list" aria-label="Models on the server">
          {models.map((id) => (
            <li key={id}>
              <button type="button" className="button-quiet button-small" aria-pressed={id === model} onClick={() => onPickModel(id)}>
                {id}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
