import { mkdir, readFile, rename } from 'node:fs/promises';
import path from 'node:path';
import type { z } from 'zod';
import { removeStaleTempFiles, writeFileAtomic } from '../files/atomicWrite.js';

/**
 * One JSON file in the config directory, validated on read. A file that is not valid is moved aside
 * (never silently overwritten) and the defaults are used, with a warning naming where it went.
 */
export class JsonConfigFile<T> {
  readonly file: string;

  constructor(
    dir: string,
    name: string,
    private readonly schema: z.ZodType<T>,
    private readonly defaults: () => T,
  ) {
    this.file = path.join(dir, name);
  }

  async read(onWarning: (message: string) => void = console.warn): Promise<T> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return this.defaults();
      throw error;
    }
    const parsed = safeJson(text);
    const checked = parsed === undefined ? undefined : this.schema.safeParse(parsed);
    if (checked?.success) return checked.data;
    const aside = `${this.file}.invalid-${Date.now()}`;
    await rename(this.file, aside);
    onWarning(`${path.basename(this.file)} was not valid and was moved to ${aside}; defaults are used.`);
    return this.defaults();
  }

  async write(value: T): Promise<void> {
    await mkdir(path.dirname(this.file), { recursive: true, mode: 0o700 });
    await removeStaleTempFiles(path.dirname(this.file)); // left by a writer that was killed mid-write
    await writeFileAtomic(this.file, `${JSON.stringify(value, null, 2)}\n`, 0o600);
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
