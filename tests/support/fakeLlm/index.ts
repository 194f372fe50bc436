/** A fake OpenAI-compatible HTTP server that answers with scripted turns, faults and local-server quirks. */
export { startFakeLlm, type FakeLlm } from './server.js';
export { breakpointsIn, type CacheHintMode } from './cacheHints.js';
export type {
  Fault,
  FaultName,
  FakeLlmOptions,
  FinishReason,
  PromptCacheOptions,
  Quirk,
  RecordedRequest,
  Script,
  ScriptedToolCall,
  ScriptedTurn,
  ScriptedUsage,
  UsageShape,
} from './types.js';
export type { WireChunk, WireCompletion, WireToolCallFragment } from './chunks.js';
export { requestTokens, type CacheReport, type PromptCache } from './promptCache.js';
