import type { ChatCompletionContentPartText } from 'openai/resources/chat/completions';
import { describe, expect, it } from 'vitest';
import { markLast, wireMessages } from '../../../engine/llm/cacheHints/cacheBreakpoints.js';
import { implementPhase, researchPhase, type ImplementInput } from '../../../engine/rpi/phases.js';
import { parsePlan } from '../../../engine/rpi/planFile.js';

const plan = '# Execution Plan\n\n## Items\n- [ ] 1. Alpha — add a flag\n- [ ] 2. Beta — print JSON\n';
const start = { request: 'Add --json', instructions: 'Use tabs.', attachments: '', approvedPlan: plan, manifest: '.: 3 files\nsrc/cli.ts' };

function itemInput(index: number, changedFiles: string[] = []): ImplementInput {
  const items = parsePlan(plan).items.map((item) => (item.index < index ? { ...item, status: 'done' as const } : item));
  return { start, item: items[index]!, step: index + 1, items, added: [], folderInstructions: '', changedFiles };
}

/** What Claude through OpenRouter is sent (breakpoints on) for a phase's messages. */
const forClaude = (messages: Parameters<typeof wireMessages>[0]) => wireMessages(messages, true);
const parts = (content: unknown) => content as (ChatCompletionContentPartText & { cache_control?: unknown })[];

describe('cache breakpoints in the RPI layout (Claude through OpenRouter)', () => {
  it("end the system prompt and the item's stable sections; the part after them is the only one that differs between items", () => {
    const [alphaSystem, alphaUser] = forClaude(implementPhase.messages(itemInput(0)));
    const [betaSystem, betaUser] = forClaude(implementPhase.messages(itemInput(1, ['changed: src/cli.ts'])));

    expect(betaSystem).toEqual(alphaSystem);
    expect(parts(alphaSystem!.content).at(-1)).toMatchObject({ cache_control: { type: 'ephemeral' } });
    const [alphaStable, alphaRest] = parts(alphaUser!.content);
    const [betaStable, betaRest] = parts(betaUser!.content);
    expect(betaStable).toEqual(alphaStable);
    expect(alphaStable).toMatchObject({ cache_control: { type: 'ephemeral' } });
    expect(alphaStable!.text).toContain('src/cli.ts');
    expect(alphaStable!.text).not.toContain('Current item');
    expect(betaRest).toEqual({ type: 'text', text: expect.stringContaining('Current item (step 2 of 2)') });
    expect(betaRest).not.toHaveProperty('cache_control');
    expect(alphaRest!.text).not.toEqual(betaRest!.text);
  });

  it('leave the text every other server gets unchanged: one string, the same characters', () => {
    const messages = implementPhase.messages(itemInput(1));
    const [, plainUser] = wireMessages(messages, false);
    const [, claudeUser] = forClaude(messages);
    expect(plainUser!.content).toBe(messages[1]!.content);
    expect(parts(claudeUser!.content).map((part) => part.text).join('')).toBe(messages[1]!.content);
    expect(JSON.stringify(wireMessages(messages, false))).not.toContain('cache');
  });

  it("end a Research context's one user message, and each turn's last message, within Anthropic's 4", () => {
    const first = researchPhase.messages({ request: 'Look around', instructions: '', manifest: '.: 1 file' });
    const turn = markLast([
      ...first,
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'read_file', arguments: '{"path":"a"}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: 'export const a = 1;' },
    ]);
    const wire = forClaude(turn);
    const marked = wire.flatMap((message, index) => (JSON.stringify(message).includes('cache_control') ? [index] : []));
    expect(marked).toEqual([0, 1, 3]);
    expect(markLast(first)).toEqual(first);
  });
});
