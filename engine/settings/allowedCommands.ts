import { z } from 'zod';
import { JsonConfigFile } from './jsonConfigFile.js';

/** A command the user chose to "always allow", bound to the files that define what it runs. */
export interface AllowedCommand {
  command: string;
  /**
   * Content hash of each file (relative to the folder) that defines what the command runs, as it was
   * when the user allowed it; absent for entries saved before allowances were bound, which ask once.
   */
  files?: Record<string, string>;
}

const entrySchema = z.union([z.string(), z.object({ command: z.string(), files: z.record(z.string(), z.string()).optional() })]);
const schema = z.record(z.string(), z.array(entrySchema));

/**
 * Commands the user chose to "always allow", per project folder, in `<configDir>/allowed-commands.json`.
 * Kept in the user's config, never in the folder: a cloned repository must not be able to plant them.
 */
export class AllowedCommands {
  private readonly file: JsonConfigFile<z.infer<typeof schema>>;

  constructor(configDir: string) {
    this.file = new JsonConfigFile(configDir, 'allowed-commands.json', schema, () => ({}));
  }

  async list(folder: string): Promise<AllowedCommand[]> {
    return ((await this.file.read())[folder] ?? []).map((entry) => (typeof entry === 'string' ? { command: entry } : entry));
  }

  /** Adds the command, or rebinds it when it is already there. */
  async add(folder: string, entry: AllowedCommand): Promise<void> {
    const all = await this.file.read();
    const others = (await this.list(folder)).filter((current) => current.command !== entry.command);
    await this.file.write({ ...all, [folder]: [...others, entry] });
  }
}
