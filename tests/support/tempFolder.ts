import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';

/**
 * Gives each test its own real folder under the system temp dir and removes them all after the test.
 * Call it once at the top of a describe block; the returned function makes a fresh folder (real path).
 */
export function useTempFolders(prefix = 'rpi-test-'): () => Promise<string> {
  const made: string[] = [];
  afterEach(async () => {
    await Promise.all(made.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
  });
  return async () => {
    const folder = await realpath(await mkdtemp(path.join(os.tmpdir(), prefix)));
    made.push(folder);
    return folder;
  };
}

/** Writes files (relative path → content) under `root`, creating parent folders as needed. */
export async function writeTree(root: string, files: Record<string, string>): Promise<void> {
  for (const [relPath, content] of Object.entries(files)) {
    const file = path.join(root, relPath);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, content);
  }
}
