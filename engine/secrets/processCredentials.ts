import { isCredentialVariable } from './credentialShapes.js';
import { isDistinctive } from './secretMask.js';
import { overwriteStartupBlocks } from './startupBlocks.js';

let withdrawn: Readonly<Record<string, string>> = {};

/** How withdrawCredentials went: how many variables it took, and whether their startup copies could be overwritten. */
export interface Withdrawal {
  readonly variables: number;
  /** Entries overwritten in /proc/<pid>/environ and cmdline; null where the system gives no way to. */
  readonly overwritten: number | null;
}

/**
 * Takes every credential out of this process's environment before anything runs, so no command the agent
 * starts can find one there: not in what it inherits, and not by reading `/proc/<engine pid>/environ` or
 * `/cmdline` (which show the process's startup memory, whatever `process.env` says later). A variable is
 * a credential by its name or value (credentialShapes.ts), or because it holds a copy of one, or of
 * `argumentSecrets` (values given on the command line, such as `--api-key`, which are overwritten there
 * too). The variables stay in this module's memory, where `hostEnvironment()` still gives them to the
 * settings (the API key in OPENAI_API_KEY). Called by each host before anything else; may be called
 * again with more argument secrets.
 */
export function withdrawCredentials(argumentSecrets: readonly string[] = []): Withdrawal {
  const taken: Record<string, string> = { ...withdrawn };
  const entries = Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined);
  for (const [name, value] of entries) if (isCredentialVariable(name, value)) taken[name] = value;
  const copied = [...Object.values(taken), ...argumentSecrets].filter(isDistinctive);
  for (const [name, value] of entries) if (copied.some((secret) => value.includes(secret))) taken[name] = value;
  for (const name of Object.keys(taken)) delete process.env[name];
  withdrawn = taken;
  const overwritten = overwriteStartupBlocks({ variables: Object.keys(taken), argumentValues: argumentSecrets });
  return { variables: Object.keys(taken).length, overwritten };
}

/** The environment the host started with: `process.env` and the credentials withdrawn from it. */
export function hostEnvironment(): Readonly<Record<string, string | undefined>> {
  return { ...process.env, ...withdrawn };
}

/** A line for the host to show when credentials were taken but their startup copies stay readable on Linux; null otherwise. */
export function withdrawalWarning({ variables, overwritten }: Withdrawal): string | null {
  if (process.platform !== 'linux' || overwritten !== null || variables === 0) return null;
  return (
    'Warning: this system does not let the workbench clear its own startup environment, so a command you approve could read ' +
    'the credentials it was started with from /proc. Prefer the API key in Settings to OPENAI_API_KEY.'
  );
}
