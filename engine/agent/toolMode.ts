import type { ToolMode } from '../contract/index.js';

/**
 * How tools reach the model during a run: as native tool definitions, or as the text protocol (a fenced
 * action block). `auto` starts native and falls back to text for the rest of the run when the server
 * refuses tools or the model answers with an action block instead of a tool call.
 */
export class ToolModeState {
  private current: 'native' | 'text';
  private readonly canFallBack: boolean;

  constructor(setting: ToolMode) {
    this.current = setting === 'text' ? 'text' : 'native';
    this.canFallBack = setting === 'auto';
  }

  get mode(): 'native' | 'text' {
    return this.current;
  }

  /** Switches to the text protocol when the setting allows it; false when it does not (or already did). */
  fallBackToText(): boolean {
    if (!this.canFallBack || this.current === 'text') return false;
    this.current = 'text';
    return true;
  }
}
