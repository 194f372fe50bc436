import { phaseNames, phaseSchema, type Phase } from '../../engine/contract/index.js';
import { connectionFor, sameServerModel, type LlmSettings } from '../../engine/index.js';
import { visibleLine } from '../terminal/visibleText.js';

/** What `/model …` asks for: one model for every phase, or one phase's model on the same server. */
export interface ModelChoice {
  phase: Phase | null;
  model: string;
}

/** `/model gpt-4.1` (every phase) or `/model plan o3` (a phase name first). */
export function parseModelChoice(argument: string): ModelChoice {
  const [first = '', ...rest] = argument.trim().split(/\s+/);
  const phase = phaseSchema.safeParse(first.toLowerCase());
  if (phase.success && rest.length > 0) return { phase: phase.data, model: rest.join(' ') };
  return { phase: null, model: argument.trim() };
}

/**
 * The settings with the choice made: one model for every phase replaces the default and every phase's own
 * (as --model does); a phase's model is that model on the default connection's server.
 */
export function withModelChoice(llm: LlmSettings, { phase, model }: ModelChoice): LlmSettings {
  if (phase !== null) return { ...llm, phaseModels: { ...llm.phaseModels, [phase]: sameServerModel(llm, model) } };
  const { phaseModels: _own, ...rest } = llm;
  // The price in Settings is the saved model's: another model is priced from the catalog.
  return { ...rest, model, price: model === llm.model ? llm.price : null };
}

/** "Model: gpt-4.1 at https://api.openai.com/v1.", and each phase's when they differ. */
export function modelsInUse(llm: LlmSettings): string {
  const main = `Model: ${visibleLine(llm.model)} at ${visibleLine(llm.baseUrl)}.`;
  if (!llm.phaseModels || Object.keys(llm.phaseModels).length === 0) return main;
  const phases = phaseSchema.options.map((phase) => {
    const connection = connectionFor(llm, phase);
    const where = connection.baseUrl === llm.baseUrl ? '' : ` at ${visibleLine(connection.baseUrl)}`;
    return `${phaseNames[phase]}: ${visibleLine(connection.model)}${where}`;
  });
  return `${main}\n${phases.join(' · ')}`;
}
