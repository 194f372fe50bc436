import { createHash } from 'node:crypto';
import type { ModelConnection } from '../llmTypes.js';

/**
 * The prompt cache key a phase's model is sent: the folder's own key for the default model, and for a phase
 * on another model or server a key derived from it, so each model's requests share a cache with each other
 * and never with another model's (a server routes by the key), and no server learns another's key.
 */
export function modelCacheKey(folderKey: string, connection: Pick<ModelConnection, 'baseUrl' | 'model'>, main: Pick<ModelConnection, 'baseUrl' | 'model'>): string {
  const trimmed = (url: string) => url.replace(/\/+$/, '');
  if (trimmed(connection.baseUrl) === trimmed(main.baseUrl) && connection.model === main.model) return folderKey;
  return createHash('sha256').update(`${folderKey}\n${trimmed(connection.baseUrl)}\n${connection.model}`).digest('hex').slice(0, 32);
}
