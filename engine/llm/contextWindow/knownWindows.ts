/**
 * Context windows of well-known models, from their makers' model pages, for servers that do not say
 * (OpenAI, Anthropic's and Google's OpenAI-compatible endpoints, DeepSeek, Mistral). Matched by the
 * longest prefix of the model name, in lower case, without an `org/` prefix or a `:tag` suffix.
 */
const knownWindows: Readonly<Record<string, number>> = {
  'gpt-4.1': 1_047_576,
  'gpt-4o': 128_000,
  // 272,000 of input and 128,000 of output.
  'gpt-5': 400_000,
  o3: 200_000,
  'o4-mini': 200_000,
  'claude-': 200_000,
  'gemini-2.5': 1_048_576,
  'gemini-2.0': 1_048_576,
  // DeepSeek-V3.2 behind both names since its API moved to 128K (both were 64K before).
  'deepseek-chat': 128_000,
  'deepseek-reasoner': 128_000,
  'qwen2.5-coder': 32_768,
  'llama3.1': 131_072,
  'llama3.2': 131_072,
  'llama3.3': 131_072,
  'llama-3.1': 131_072,
  'llama-3.2': 131_072,
  'llama-3.3': 131_072,
  'meta-llama-3.1': 131_072,
  'mistral-large': 131_072,
  codestral: 256_000,
};

const prefixesLongestFirst = Object.keys(knownWindows).sort((a, b) => b.length - a.length);

export interface KnownWindow {
  tokens: number;
  /** The table entry that matched, e.g. "gpt-4o". */
  prefix: string;
}

/** The known window of `model` ("openai/gpt-4o-mini", "llama3.1:8b", "claude-sonnet-4-5"), or null. */
export function knownWindow(model: string): KnownWindow | null {
  const name = model.trim().toLowerCase().replace(/^.*\//, '').replace(/:[^:]*$/, '');
  const prefix = prefixesLongestFirst.find((candidate) => name.startsWith(candidate));
  return prefix === undefined ? null : { tokens: knownWindows[prefix] ?? 0, prefix };
}
