import { readFile, readlink } from 'node:fs/promises';
import path from 'node:path';
import { killProcessTree } from './killProcessTree.js';
import { commandMarkerVariable, listProcesses } from './processTable.js';

/**
 * Ends the processes of commands that an engine which died on this folder left running (its watchdog
 * normally ends them; this is for when the watchdog was killed too): every process whose environment
 * carries that engine's command marker and whose working folder is inside `root`, with all it started.
 * The engine id comes from the folder's lock file, which a cloned repository could plant, hence the
 * folder check: nothing outside the folder is touched. Linux only (it reads /proc); returns how many
 * processes were ended.
 */
export async function endOrphanedCommands(engine: string, root: string): Promise<number> {
  if (process.platform !== 'linux' || !/^[0-9a-f]{12}$/.test(engine)) return 0;
  const prefix = Buffer.from(`\0${commandMarkerVariable}=${engine}.`);
  const table = await listProcesses().catch(() => []);
  const found: number[] = [];
  await Promise.all(
    table.map(async ({ pid, zombie }) => {
      if (zombie || pid <= 1 || pid === process.pid) return;
      const environment = await readFile(`/proc/${pid}/environ`).catch(() => null);
      if (!environment || !Buffer.concat([Buffer.from('\0'), environment]).includes(prefix)) return;
      const cwd = await readlink(`/proc/${pid}/cwd`).catch(() => null);
      if (cwd !== null && (cwd === root || cwd.startsWith(`${root}${path.sep}`))) found.push(pid);
    }),
  );
  let ended = 0;
  for (const pid of found) ended += await killProcessTree({ pid, graceMs: 1000 });
  return ended;
}
