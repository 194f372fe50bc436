import type { ChatMessage, LlmRequest } from '../../llm/llmTypes.js';
import { estimatePromptTokens } from '../../llm/tokenEstimate.js';

/**
 * Token counts of whole requests, message by message, so each message is counted once however many turns
 * it travels in. The counts add up: a request costs the sum of its messages plus the reply priming and the
 * tool definitions, as estimatePromptTokens counts it.
 */
export class RequestSize {
  private readonly messageTokens = new WeakMap<ChatMessage, number>();
  private lastTools: { json: string; tokens: number } | null = null;
  private priming: number | null = null;

  async ofMessage(message: ChatMessage): Promise<number> {
    const known = this.messageTokens.get(message);
    if (known !== undefined) return known;
    const tokens = (await estimatePromptTokens([message])) - (await this.primingTokens());
    this.messageTokens.set(message, tokens);
    return tokens;
  }

  async ofRequest(request: LlmRequest): Promise<number> {
    let total = (await this.primingTokens()) + (await this.ofTools(request));
    for (const message of request.messages) total += await this.ofMessage(message);
    return total;
  }

  private async ofTools({ tools = [] }: LlmRequest): Promise<number> {
    if (tools.length === 0) return 0;
    const json = JSON.stringify(tools);
    if (this.lastTools?.json !== json) this.lastTools = { json, tokens: (await estimatePromptTokens([], tools)) - (await this.primingTokens()) };
    return this.lastTools.tokens;
  }

  private async primingTokens(): Promise<number> {
    this.priming ??= await estimatePromptTokens([]);
    return this.priming;
  }
}
