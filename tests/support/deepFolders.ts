import { execFileSync } from 'node:child_process';
import { mkdtemp, realpath } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';

/**
 * Makes `depth` nested folders (`a/a/a/…`) under `root` with the file `leaf` at the bottom, by stepping
 * into each with a relative chdir in a child process: the path soon passes PATH_MAX, which no call given
 * the whole path can reach. Returns the deepest folder's path from `root`.
 */
export function makeDeepFolders(root: string, { depth = 3000, name = 'a', leaf = 'leaf.txt' }: { depth?: number; name?: string; leaf?: string } = {}): string {
  const script = `
    const fs = require('node:fs');
    process.chdir(process.argv[1]);
    for (let level = 0; level < ${depth}; level += 1) {
      fs.mkdirSync(${JSON.stringify(name)});
      process.chdir(${JSON.stringify(name)});
    }
    fs.writeFileSync(${JSON.stringify(leaf)}, 'deep leaf\\n');`;
  execFileSync(process.execPath, ['-e', script, root]);
  return Array.from({ length: depth }, () => name).join('/');
}

/**
 * A fresh temp folder per call (real path), removed after each test with `rm -rf`: rm walks by descriptor
 * and removes a tree deeper than PATH_MAX, which Node's fs.rm cannot.
 */
export function useDeepTempFolders(prefix: string): () => Promise<string> {
  const made: string[] = [];
  afterEach(() => {
    for (const folder of made.splice(0)) execFileSync('rm', ['-rf', folder]);
  });
  return async () => {
    const folder = await realpath(await mkdtemp(path.join(os.tmpdir(), prefix)));
    made.push(folder);
    return folder;
  };
}

/** The first folder of `a/a/a/…` below `root` whose whole path passes `maxBytes`: where a walk has to stop. */
export function firstBeyond(root: string, { name = 'a', maxBytes = 4095 }: { name?: string; maxBytes?: number } = {}): string {
  const levels = Math.floor((maxBytes - Buffer.byteLength(root)) / (name.length + 1)) + 1;
  return Array.from({ length: levels }, () => name).join('/');
}
