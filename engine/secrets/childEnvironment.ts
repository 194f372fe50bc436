import { isCredentialVariable } from './credentialShapes.js';
import { isDistinctive } from './secretMask.js';

/**
 * The environment for commands the model runs: `env` without anything that looks like a credential.
 *
 * A command can print its environment (`env`, `printenv`, a failing script's debug dump) straight into
 * a result the model reads and the tool log keeps on disk, and the model could pass it on anywhere. So a
 * variable is dropped when its name or its value looks like a credential (credentialShapes.ts), and when
 * its value contains one of `secrets` (the workbench's own keys, the environment's credentials), which
 * catches a key copied into an innocently named variable. Only distinctive secrets are looked for inside
 * other values (isDistinctive): `POSTGRES_PASSWORD=postgres` must not take PATH with it. Returns a fresh
 * object holding strings only.
 */
export function childEnvironment(env: Readonly<Record<string, string | undefined>>, secrets: readonly string[]): Record<string, string> {
  const known = secrets.filter(isDistinctive);
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || isCredentialVariable(name, value)) continue;
    if (known.some((secret) => value.includes(secret))) continue;
    kept[name] = value;
  }
  return kept;
}
