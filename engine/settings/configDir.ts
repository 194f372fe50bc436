import os from 'node:os';
import path from 'node:path';

/**
 * The user's config directory for RPI Workbench. Settings, keys and approvals live here and never in a
 * project's `.workbench/` (a cloned repository could plant them). `RPI_WORKBENCH_CONFIG_DIR` overrides it.
 */
export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  const override = env.RPI_WORKBENCH_CONFIG_DIR?.trim();
  if (override) return path.resolve(override);
  const home = os.homedir();
  if (process.platform === 'darwin') return path.join(home, 'Library', 'Application Support', 'RPI Workbench');
  if (process.platform === 'win32') return path.join(env.APPDATA ?? path.join(home, 'AppData', 'Roaming'), 'RPI Workbench');
  return path.join(env.XDG_CONFIG_HOME?.trim() || path.join(home, '.config'), 'rpi-workbench');
}
