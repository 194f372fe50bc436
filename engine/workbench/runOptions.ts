import type { ApprovalSettings } from '../contract/index.js';
import type { LlmClientOptions } from '../llm/openaiClient.js';
import type { LlmSettings } from '../llm/llmTypes.js';
import type { WorkbenchMcpOptions } from '../mcp/workbenchMcp.js';
import type { RpiLimits } from '../rpi/rpiRun.js';
import type { AllowedCommand } from '../settings/allowedCommands.js';

/** How a workbench reaches its model and runs its loops; hosts pass the settings, tests narrow the limits. */
export interface RunOptions {
  /** The model settings, read afresh before each run. Without it every run is refused. */
  llmSettings?: () => Promise<LlmSettings>;
  limits?: Partial<RpiLimits>;
  /** Stream watchdog and retries of the model client, and the fetch it sends its requests with (global fetch when absent). */
  llmClient?: Pick<LlmClientOptions, 'firstByteTimeoutMs' | 'idleTimeoutMs' | 'queueLimitMs' | 'maxRetries' | 'retryBaseDelayMs' | 'fetch'>;
  /** The host's environment, credentials included (they are removed before commands inherit it); hostEnvironment() by default. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Approval policies, timeout and the plan review switch, read afresh before each run; every change asks when absent. */
  approvals?: () => Promise<ApprovalSettings>;
  /** Where "always allow" commands are kept, per folder, in the user's config; in memory when absent. */
  allowedCommands?: AllowedCommandStore;
  /** The user's MCP servers: started when the folder opens, their tools offered by phase; none when absent. */
  mcp?: WorkbenchMcpOptions;
  /** Where each folder's prompt cache key is kept, in the user's config; no key is sent when absent. */
  promptCacheKeys?: PromptCacheKeyStore;
  /** Each folder's check command, kept in the user's config (FolderChecks); in memory when absent. */
  folderChecks?: FolderCheckStore;
}

export interface FolderCheckStore {
  get(folder: string): Promise<string | null>;
  /** null removes the folder's check command. */
  set(folder: string, command: string | null): Promise<void>;
}

/** A folder check command kept as long as the workbench, when the host keeps none in the user's config; `initial` is the first. */
export function memoryFolderChecks(initial: string | null = null): FolderCheckStore {
  let command = initial;
  return {
    get: async () => command,
    set: async (_folder, next) => {
      command = next;
    },
  };
}

export interface PromptCacheKeyStore {
  /** The folder's random id, made the first time it is asked for. */
  keyFor(folder: string): Promise<string>;
}

export interface AllowedCommandStore {
  list(folder: string): Promise<AllowedCommand[]>;
  /** Adds the command, or rebinds it to the files given when it is already there. */
  add(folder: string, entry: AllowedCommand): Promise<void>;
}

/** "Always allow" commands when the host keeps none in the user's config: they last as long as the workbench. */
export function memoryAllowList(): AllowedCommandStore {
  const byFolder = new Map<string, AllowedCommand[]>();
  return {
    list: async (folder) => byFolder.get(folder) ?? [],
    add: async (folder, entry) => {
      const others = (byFolder.get(folder) ?? []).filter((current) => current.command !== entry.command);
      byFolder.set(folder, [...others, entry]);
    },
  };
}
