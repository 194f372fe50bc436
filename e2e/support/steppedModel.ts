import type { ChatCompletionCreateParams } from 'openai/resources/chat/completions';
import type { Phase } from '../../engine/contract/index.js';
import { startFakeLlm, type FakeLlm, type ScriptedTurn } from '../../tests/support/fakeLlm/index.js';
import { phaseOfRequest } from '../../tests/support/rpiScript.js';

/** A request the model has received and not answered yet. */
export interface HeldRequest {
  phase: Phase | null;
  body: ChatCompletionCreateParams;
  answer(turn: ScriptedTurn): void;
}

export interface SteppedModel {
  llm: FakeLlm;
  /** Waits for the model's next request, held until the test answers it. */
  next(): Promise<HeldRequest>;
  /** Waits for the next request, checks its phase, and answers it. */
  answer(phase: Phase, turn: ScriptedTurn): Promise<void>;
  close(): Promise<void>;
}

/**
 * The fake OpenAI server with every chat request held until the test answers it, so a test can look
 * at (and take a screenshot of) the UI at each step of a run without racing the engine.
 */
export async function startSteppedModel(): Promise<SteppedModel> {
  const waiting: HeldRequest[] = [];
  const takers: ((request: HeldRequest) => void)[] = [];
  const llm = await startFakeLlm({
    script: (request) =>
      new Promise<ScriptedTurn>((resolve) => {
        const body = request.body as ChatCompletionCreateParams;
        const held: HeldRequest = { phase: phaseOfRequest(body), body, answer: resolve };
        const taker = takers.shift();
        if (taker) taker(held);
        else waiting.push(held);
      }),
  });
  const next = () => {
    const held = waiting.shift();
    return held ? Promise.resolve(held) : new Promise<HeldRequest>((resolve) => takers.push(resolve));
  };
  return {
    llm,
    next,
    async answer(phase, turn) {
      const held = await next();
      if (held.phase !== phase) throw new Error(`expected a ${phase} request, the model got a ${held.phase ?? 'unknown'} one`);
      held.answer(turn);
    },
    close: () => llm.close(),
  };
}
