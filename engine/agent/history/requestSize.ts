import type { ChatMessage, LlmRequest } from '../../llm/llmTypes.js';
import { estimatePromptTokens, promptTokensAtMost } from '../../llm/tokenEstimate.js';

/**
 * Token counts of whole requests and of single messages. The counts add up: a request costs the sum of
 * its messages plus the reply priming and the tool definitions, as estimatePromptTokens counts it (which
 * counts each message once however many turns it travels in).
 */
export class RequestSize {
  private priming: number | null = null;

  async ofMessage(message: ChatMessage): Promise<number> {
    return (await estimatePromptTokens([message])) - (await this.primingTokens());
  }

  ofRequest({ messages, tools }: LlmRequest): Promise<number> {
    return estimatePromptTokens(messages, tools);
  }

  /** A bound ofRequest never passes, made without tokenizing (see promptTokensAtMost). */
  atMost({ messages, tools }: LlmRequest): Promise<number> {
    return promptTokensAtMost(messages, tools);
  }

  private async primingTokens(): Promise<number> {
    this.priming ??= await estimatePromptTokens([]);
    return this.priming;
  }
}
