import { describe, expect, it } from 'vitest';
import { modelsInUse, parseModelChoice, withModelChoice } from '../../../cli/chat/modelChoice.js';
import type { LlmSettings } from '../../../engine/index.js';

const settings: LlmSettings = {
  baseUrl: 'https://api.example.com/v1',
  apiKey: 'sk-main-0123456789',
  model: 'big',
  contextWindow: null,
  toolMode: 'auto',
  price: { input: 2, cachedInput: null, output: 8 },
  phaseModels: { plan: { baseUrl: 'http://127.0.0.1:8000/v1', apiKey: null, model: 'local', contextWindow: 8192 } },
};

describe('/model in the chat', () => {
  it('reads a phase name first as that phase, anything else as one model for every phase', () => {
    expect(parseModelChoice('gpt-4.1-mini')).toEqual({ phase: null, model: 'gpt-4.1-mini' });
    expect(parseModelChoice('Research  o3')).toEqual({ phase: 'research', model: 'o3' });
    expect(parseModelChoice('plan')).toEqual({ phase: null, model: 'plan' });
    expect(parseModelChoice('planner o3')).toEqual({ phase: null, model: 'planner o3' });
  });

  it('puts a phase on another model of the default server, with its key and without the default model\'s price', () => {
    const changed = withModelChoice(settings, { phase: 'implement', model: 'small' });
    expect(changed.phaseModels?.implement).toEqual({ baseUrl: settings.baseUrl, apiKey: settings.apiKey, model: 'small', contextWindow: null, price: null });
    expect(changed.phaseModels?.plan).toEqual(settings.phaseModels?.plan);
    expect(withModelChoice(settings, { phase: 'summary', model: 'big' }).phaseModels?.summary?.price).toEqual(settings.price);
  });

  it('with one model for every phase, drops each phase\'s own', () => {
    const single = withModelChoice(settings, { phase: null, model: 'other' });
    expect(single.phaseModels).toBeUndefined();
    expect(single).toMatchObject({ model: 'other', price: null, baseUrl: settings.baseUrl });
  });

  it('names each phase\'s model, and the server of one on another', () => {
    expect(modelsInUse(settings)).toBe(
      'Model: big at https://api.example.com/v1.\nResearch: big · Plan: local at http://127.0.0.1:8000/v1 · Implement: big · Summary: big',
    );
    expect(modelsInUse({ ...settings, phaseModels: {} })).toBe('Model: big at https://api.example.com/v1.');
  });
});
