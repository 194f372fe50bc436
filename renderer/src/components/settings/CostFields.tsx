import { Field } from '../Field.js';
import type { SettingsDraft } from './settingsDraft.js';

interface CostFieldsProps {
  draft: SettingsDraft;
  onChange: (patch: Partial<SettingsDraft>) => void;
}

type PriceField = 'priceInput' | 'priceCachedInput' | 'priceOutput';

/** What requests cost: the cache hints that make them cheaper, and the model's price when the catalog has none or another. */
export function CostFields({ draft, onChange }: CostFieldsProps) {
  const price = (field: PriceField) => (event: { target: { value: string } }) => onChange({ [field]: event.target.value });
  return (
    <fieldset className="settings-group">
      <legend>Cost</legend>
      <Field label="Prompt caching" hint="Automatic: a cache key or cache breakpoints go to the servers that document them (OpenAI, Azure, Mistral, OpenRouter, xAI, Fireworks). Off: none at all.">
        <select value={draft.promptCaching} onChange={(event) => onChange({ promptCaching: event.target.value as SettingsDraft['promptCaching'] })}>
          <option value="auto">Automatic</option>
          <option value="off">Off</option>
        </select>
      </Field>
      <p className="hint">
        The model’s price in US dollars per million tokens, over the server’s reported cost and the bundled catalog. Leave all three empty to use those; an empty cached input is billed as input.
      </p>
      <Field label="Input price">
        <input type="number" min={0} step="any" value={draft.priceInput} onChange={price('priceInput')} placeholder="From the catalog" />
      </Field>
      <Field label="Cached input price">
        <input type="number" min={0} step="any" value={draft.priceCachedInput} onChange={price('priceCachedInput')} placeholder="As input" />
      </Field>
      <Field label="Output price">
        <input type="number" min={0} step="any" value={draft.priceOutput} onChange={price('priceOutput')} placeholder="From the catalog" />
      </Field>
    </fieldset>
  );
}
