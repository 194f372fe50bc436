/**
 * Public surface of the engine for hosts (Electron main, CLI, browser host): with engine/contract/, the
 * only engine module a host imports (credential withdrawal, which must run first, and the command
 * launcher's process have their own entries).
 */
export { openUsedWorkbench, openWorkbench, stateDirName, type PayloadArgument, type Workbench } from './workbench/openWorkbench.js';
export { memoryFolderChecks, type RunOptions } from './workbench/runOptions.js';
export type { RunResult } from './workbench/runAssembler.js';
export { checkFolder, FolderError } from './workbench/folderCheck.js';
export { FolderLockedError } from './workbench/folderLock.js';
export { requestHandlers } from './host/requestHandlers.js';
export { rendererCsp } from './host/contentSecurityPolicy.js';
export { attachablePaths, type AttachablePaths, type PathLookup } from './context/attachablePath.js';
export { AllowedCommands, configDir, FolderChecks, noKeyStorage, PromptCacheKeys, RecentFolders, SettingsStore, type KeyCipher } from './settings/index.js';
export { userMcp, type UserMcp } from './mcp/userMcp.js';
export type { WorkbenchMcpOptions } from './mcp/workbenchMcp.js';
export { LlmError, type LlmSettings, type ModelConnection } from './llm/llmTypes.js';
export { connectionFor, connectionIdentity, sameServerModel } from './llm/phaseModel.js';
export { listModels, type ModelListing } from './llm/listModels.js';
export { shownUrl } from './llm/messageWording.js';
export { discoverContextWindow } from './llm/contextWindow/discoverContextWindow.js';
export { contextWindowLine } from './llm/contextWindow/contextWindowLine.js';
export { gitPatch } from './diff/index.js';
export { hostEnvironment, withdrawalWarning, withdrawCredentials } from './secrets/processCredentials.js';
export { setCommandLauncher } from './process/commandLauncher.js';
export type { LauncherChannel, LauncherStart } from './process/launcherChannel.js';
