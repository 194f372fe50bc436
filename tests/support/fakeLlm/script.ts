import type { RecordedRequest, Script, ScriptedTurn } from './types.js';

export type NextTurn = { ok: true; turn: ScriptedTurn; index: number } | { ok: false; error: string };

/** Hands out scripted turns: queued ones first, then the script function, else a loud "ran out". */
export class TurnSource {
  private readonly queue: ScriptedTurn[];
  private readonly respond: Exclude<Script, ScriptedTurn[]> | null;
  private served = 0;

  constructor(script: Script | undefined) {
    this.queue = Array.isArray(script) ? [...script] : [];
    this.respond = typeof script === 'function' ? script : null;
  }

  enqueue(turns: readonly ScriptedTurn[]): void {
    this.queue.push(...turns);
  }

  async next(request: RecordedRequest): Promise<NextTurn> {
    const index = this.served;
    const queued = this.queue.shift();
    if (queued !== undefined) {
      this.served += 1;
      return { ok: true, turn: queued, index };
    }
    if (this.respond === null) {
      return {
        ok: false,
        error:
          `fake LLM script exhausted: chat request #${index + 1} arrived but no scripted turn is left ` +
          `(${index} served). Script more turns with startFakeLlm({ script }) or llm.enqueue().`,
      };
    }
    this.served += 1;
    try {
      return { ok: true, turn: await this.respond(request, index), index };
    } catch (error) {
      return { ok: false, error: `fake LLM script function threw on chat request #${index + 1}: ${String(error)}` };
    }
  }
}
