import { randomUUID } from 'node:crypto';
import { realpath } from 'node:fs/promises';
import { z } from 'zod';
import { JsonConfigFile } from './jsonConfigFile.js';

const schema = z.record(z.string(), z.string().min(1));

/**
 * Each folder's prompt cache key, in `<configDir>/prompt-cache-keys.json`: a random id made the first
 * time a folder asks, then kept, so every request about one folder reaches the cache of the earlier ones.
 * Never derived from the path, which a server must not learn. Keyed by the folder's real path.
 */
export class PromptCacheKeys {
  private readonly file: JsonConfigFile<z.infer<typeof schema>>;
  /** Keys handed out one at a time, so two asking at once for a new folder get the same one. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(configDir: string) {
    this.file = new JsonConfigFile(configDir, 'prompt-cache-keys.json', schema, () => ({}));
  }

  keyFor(folder: string): Promise<string> {
    const next = this.queue.then(() => this.readOrMake(folder));
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async readOrMake(folder: string): Promise<string> {
    const where = await realpath(folder).catch(() => folder);
    const all = await this.file.read();
    const kept = all[where];
    if (kept !== undefined) return kept;
    const key = randomUUID();
    await this.file.write({ ...all, [where]: key });
    return key;
  }
}
