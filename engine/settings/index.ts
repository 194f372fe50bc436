export { configDir } from './configDir.js';
export { noKeyStorage, type KeyCipher } from './keyCipher.js';
export { AllowedCommands, type AllowedCommand } from './allowedCommands.js';
export { FolderChecks } from './folderChecks.js';
export { PromptCacheKeys } from './promptCacheKeys.js';
export { RecentFolders } from './recentFolders.js';
export { SettingsStore, defaultApprovalSettings, defaultBaseUrl, type SettingsPatch } from './settingsStore.js';
