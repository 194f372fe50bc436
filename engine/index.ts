/** Public surface of the engine for hosts (Electron main, CLI, browser host). */
export { openWorkbench, stateDirName, type Workbench } from './workbench/openWorkbench.js';
export { RunRefusedError, type RunOptions, type RunResult, type SendOptions, type StartedRun } from './workbench/runController.js';
export { lookUpAttachable, type PathItem, type PathLookup } from './context/attachablePath.js';
export { checkFolder, FolderError } from './workbench/folderCheck.js';
export { FolderLockedError } from './workbench/folderLock.js';
export { LlmError, type LlmSettings } from './llm/llmTypes.js';
export { listModels, type ModelListing } from './llm/listModels.js';
export { hostEnvironment, withdrawalWarning, withdrawCredentials } from './secrets/processCredentials.js';
