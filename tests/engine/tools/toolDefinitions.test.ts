import { describe, expect, it, vi } from 'vitest';
import type * as Zod from 'zod';
import { toolDefinitions, toolsForPhase } from '../../../engine/tools/toolCatalog.js';

/** Conversions of a parameters schema to JSON Schema, counted. */
const converted = vi.hoisted(() => ({ count: 0 }));
vi.mock('zod', async (importOriginal) => {
  const real = await importOriginal<typeof Zod>();
  const toJSONSchema = (...args: Parameters<typeof real.z.toJSONSchema>) => {
    converted.count += 1;
    return real.z.toJSONSchema(...args);
  };
  return { ...real, z: { ...real.z, toJSONSchema } };
});

describe('toolDefinitions', () => {
  it('converts each tool’s parameters to JSON Schema once, not on every model turn', () => {
    const tools = toolsForPhase('implement');
    const first = toolDefinitions(tools);
    const afterFirst = converted.count;
    expect(afterFirst).toBe(tools.length);

    for (let turn = 0; turn < 20; turn += 1) expect(toolDefinitions(tools)).toEqual(first);
    expect(converted.count).toBe(afterFirst);
  });
});
