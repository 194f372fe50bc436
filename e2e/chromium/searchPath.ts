import path from 'node:path';
import type { FileProbe } from './probeFile.js';

export interface PathSearch {
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
  probe: (file: string) => FileProbe;
}

/** The first executable called `name` in the folders of PATH (`name.exe` on Windows), like a shell would run. */
export function searchPath(name: string, { env, platform, probe }: PathSearch): string | undefined {
  const windows = platform === 'win32';
  const folders = (env.PATH ?? env.Path ?? '').split(windows ? ';' : ':').filter(Boolean);
  const file = windows ? `${name}.exe` : name;
  const join = windows ? path.win32.join : path.posix.join;
  return folders.map((folder) => join(folder, file)).find((candidate) => probe(candidate) === 'executable');
}
