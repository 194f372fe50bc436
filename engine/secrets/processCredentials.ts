import { isCredentialVariable } from './credentialShapes.js';
import { overwriteStartupBlocks } from './startupBlocks.js';

let withdrawn: Readonly<Record<string, string>> = {};

/**
 * Takes every credential out of this process's environment before anything runs, so no command the agent
 * starts can find one there: not in what it inherits, and not by reading `/proc/<engine pid>/environ` or
 * `/cmdline` (which show the process's startup memory, whatever `process.env` says later). The variables
 * are kept in this module's memory, where `hostEnvironment()` still gives them to the settings (the API
 * key in OPENAI_API_KEY). `argumentSecrets` are values given on the command line (`--api-key`), which are
 * overwritten there too. Called once by each host at startup; returns how many startup copies were
 * overwritten, or null where the system gives no way to (then only Linux's /proc is closed).
 */
export function withdrawCredentials(argumentSecrets: readonly string[] = []): number | null {
  const taken: Record<string, string> = { ...withdrawn };
  for (const [name, value] of Object.entries(process.env)) {
    if (value === undefined || !isCredentialVariable(name, value)) continue;
    taken[name] = value;
    delete process.env[name];
  }
  withdrawn = taken;
  return overwriteStartupBlocks({ variables: Object.keys(taken), argumentValues: argumentSecrets });
}

/** The environment the host started with: `process.env` and the credentials withdrawn from it. */
export function hostEnvironment(): Readonly<Record<string, string | undefined>> {
  return { ...process.env, ...withdrawn };
}
