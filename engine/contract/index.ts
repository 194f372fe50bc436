/** The one contract shared by engine, electron hosts and renderer: requests, results, events. */
export * from './channels.js';
export * from './model.js';
export * from './requests.js';
export * from './events.js';
export * from './snapshot.js';
export * from './validate.js';
export * from './dispatch.js';
export * from './socketProtocol.js';
export * from './modelStatusText.js';
export * from './costTotal.js';
export * from './changes.js';
export * from './runHistory.js';
export * from './runUsage.js';
export * from './runUsageSchema.js';
export * from './mcp.js';
export * from './mcpToolName.js';
export * from './runRefusedError.js';
