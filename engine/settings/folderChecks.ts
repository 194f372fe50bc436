import { z } from 'zod';
import { maxCheckCommandChars } from '../contract/index.js';
import { JsonConfigFile } from './jsonConfigFile.js';


const schema = z.record(z.string(), z.string().min(1).max(maxCheckCommandChars));

/**
 * Each folder's check command (run after every plan item without a check of its own), in
 * `<configDir>/folder-checks.json`. Kept in the user's config, never in the folder: the agent can write
 * the folder, and a cloned repository must not be able to plant a command the engine runs.
 */
export class FolderChecks {
  private readonly file: JsonConfigFile<z.infer<typeof schema>>;

  constructor(configDir: string) {
    this.file = new JsonConfigFile(configDir, 'folder-checks.json', schema, () => ({}));
  }

  async get(folder: string): Promise<string | null> {
    return (await this.file.read())[folder] ?? null;
  }

  /** Sets the folder's check command; null removes it. */
  async set(folder: string, command: string | null): Promise<void> {
    const { [folder]: _dropped, ...others } = await this.file.read();
    await this.file.write(command === null ? others : { ...others, [folder]: command });
  }
}
