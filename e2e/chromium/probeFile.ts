import { accessSync, constants, statSync } from 'node:fs';

/** What is at a path a browser is expected at. */
export type FileProbe = 'executable' | 'missing' | 'not-executable';

export function probeFile(file: string): FileProbe {
  try {
    if (!statSync(file).isFile()) return 'not-executable';
  } catch {
    return 'missing';
  }
  try {
    accessSync(file, constants.X_OK);
    return 'executable';
  } catch {
    return 'not-executable';
  }
}
