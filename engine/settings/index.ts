export { configDir } from './configDir.js';
export { noKeyStorage, type KeyCipher } from './keyCipher.js';
export { RecentFolders } from './recentFolders.js';
export { SettingsStore, defaultBaseUrl, type SettingsPatch } from './settingsStore.js';
