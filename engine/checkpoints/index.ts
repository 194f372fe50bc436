export { CheckpointStore } from './checkpointStore.js';
export { CheckpointError, checkpointTagSchema, type CheckpointInfo, type CheckpointTag, type RestoreChange } from './checkpointTypes.js';
