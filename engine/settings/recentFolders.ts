import path from 'node:path';
import { z } from 'zod';
import { recentFolderSchema, type RecentFolder } from '../contract/index.js';
import { JsonConfigFile } from './jsonConfigFile.js';

const maxRecent = 12;

/** Recently opened folders, most recent first, in `<configDir>/recent-folders.json`. */
export class RecentFolders {
  private readonly file: JsonConfigFile<RecentFolder[]>;

  constructor(configDir: string) {
    this.file = new JsonConfigFile(configDir, 'recent-folders.json', z.array(recentFolderSchema), () => []);
  }

  list(): Promise<RecentFolder[]> {
    return this.file.read();
  }

  async add(folder: string, now = Date.now()): Promise<RecentFolder[]> {
    const rest = (await this.file.read()).filter((entry) => entry.folder !== folder);
    const next = [{ folder, name: path.basename(folder), lastOpened: now }, ...rest].slice(0, maxRecent);
    await this.file.write(next);
    return next;
  }
}
