import type { WorkbenchBridge } from '../../../engine/contract/bridge.js';

export type { WorkbenchBridge };

declare global {
  interface Window {
    workbench?: WorkbenchBridge;
  }
}
