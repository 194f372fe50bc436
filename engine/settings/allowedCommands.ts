import { z } from 'zod';
import { JsonConfigFile } from './jsonConfigFile.js';

const schema = z.record(z.string(), z.array(z.string()));

/**
 * Commands the user chose to "always allow", per project folder, in `<configDir>/allowed-commands.json`.
 * Kept in the user's config, never in the folder: a cloned repository must not be able to plant them.
 */
export class AllowedCommands {
  private readonly file: JsonConfigFile<Record<string, string[]>>;

  constructor(configDir: string) {
    this.file = new JsonConfigFile(configDir, 'allowed-commands.json', schema, () => ({}));
  }

  async list(folder: string): Promise<string[]> {
    return (await this.file.read())[folder] ?? [];
  }

  async add(folder: string, command: string): Promise<void> {
    const all = await this.file.read();
    const current = all[folder] ?? [];
    if (current.includes(command)) return;
    await this.file.write({ ...all, [folder]: [...current, command] });
  }
}
