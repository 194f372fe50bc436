import {
  AllowedCommands,
  checkFolder,
  configDir,
  FolderChecks,
  hostEnvironment,
  memoryFolderChecks,
  openWorkbench,
  PromptCacheKeys,
  type LlmSettings,
  type Workbench,
  type WorkbenchMcpOptions,
} from '../../engine/index.js';
import { mcpSelection } from './mcpSelection.js';
import { requireModel, resolveSettings, type ResolvedSettings } from './resolveSettings.js';
import type { RunFlags } from './runFlags.js';

/** What a command that runs requests knows before it opens the folder. */
export interface SessionSetup {
  /** The folder's real path: checked, nothing created in it yet. */
  folder: string;
  settings: ResolvedSettings;
  /** The user's config directory (settings, mcp.json, "always allow" commands, prompt cache keys). */
  userConfig: string;
  mcp: WorkbenchMcpOptions | undefined;
  /** `--check`: the folder's check command for this session; null: the one kept in the user's config. */
  check: string | null;
}

/** Settings resolved (a model is required), the MCP servers chosen, the folder checked; throws the usage error that stops the command. */
export async function prepareSession(folder: string, flags: RunFlags): Promise<SessionSetup> {
  const userConfig = configDir();
  const settings = await resolveSettings({ flags, env: hostEnvironment(), configDir: userConfig });
  requireModel(settings);
  const mcp = await mcpSelection(flags, userConfig);
  return { folder: await checkFolder(folder), settings, userConfig, mcp, check: flags.check ?? null };
}

export interface OpenSessionOptions {
  setup: SessionSetup;
  /** The model settings each run uses, read as it starts (chat's /model changes them between runs). */
  llmSettings?: () => LlmSettings;
  /** A line on stderr. */
  log: (line: string) => void;
}

/**
 * Opens the folder (taking its lock until close) with the session's settings, and says what its opening
 * found: warnings (a torn log line cut off, commands a crashed engine left) and MCP servers that failed.
 */
export async function openSessionWorkbench({ setup, llmSettings = () => setup.settings.llm, log }: OpenSessionOptions): Promise<Workbench> {
  const workbench = await openWorkbench(setup.folder, {
    llmSettings: async () => llmSettings(),
    approvals: async () => setup.settings.approvals,
    allowedCommands: new AllowedCommands(setup.userConfig),
    promptCacheKeys: new PromptCacheKeys(setup.userConfig),
    folderChecks: setup.check === null ? new FolderChecks(setup.userConfig) : memoryFolderChecks(setup.check),
    ...(setup.mcp ? { mcp: setup.mcp } : {}),
    env: hostEnvironment(),
  });
  try {
    for (const warning of (await workbench.request('workbench:snapshot')).warnings) log(`rpi-workbench: warning: ${warning}`);
  } catch (error) {
    await workbench.close();
    throw error;
  }
  // Servers that failed while the folder was being opened; later news comes as events.
  for (const status of workbench.mcp?.statuses() ?? []) if (status.state === 'failed') log(`rpi-workbench: warning: MCP server ${status.name}: ${status.error ?? 'it failed'}`);
  return workbench;
}
