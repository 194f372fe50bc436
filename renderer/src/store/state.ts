import type { HostInfo, Message, Phase, PublicSettings, RpiState, Snapshot } from '../../../engine/contract/index.js';

export interface OpenFolder {
  path: string;
  name: string;
  fileCount: number;
}

/** Everything the UI shows; derived only from snapshots, events and request results. */
export interface WorkbenchState {
  connection: 'connecting' | 'ready' | 'lost';
  host: HostInfo | null;
  settings: PublicSettings | null;
  folder: OpenFolder | null;
  messages: Message[];
  rpi: RpiState;
  running: boolean;
  phase: Phase | null;
  /** Summary text streamed so far in the current run. */
  streamingSummary: string;
  /** Seq of the last event applied; a gap means events were missed and a resync is due. */
  lastSeq: number;
  needsResync: boolean;
  warnings: string[];
  /** The last failed request, shown to the user until dismissed. */
  error: string | null;
}

export const emptyRpi: RpiState = { hasResearch: false, hasPlan: false, items: [], originalCount: null, allDone: false };

export const initialState: WorkbenchState = {
  connection: 'connecting',
  host: null,
  settings: null,
  folder: null,
  messages: [],
  rpi: emptyRpi,
  running: false,
  phase: null,
  streamingSummary: '',
  lastSeq: 0,
  needsResync: false,
  warnings: [],
  error: null,
};

/** Replaces everything a snapshot knows about; connection, host, settings and errors are kept. */
export function applySnapshot(state: WorkbenchState, snapshot: Snapshot | null): WorkbenchState {
  if (snapshot === null) return { ...state, folder: null, messages: [], rpi: emptyRpi, running: false, phase: null, lastSeq: 0, needsResync: false };
  return {
    ...state,
    folder: { path: snapshot.folder, name: snapshot.name, fileCount: snapshot.fileCount },
    messages: snapshot.conversation,
    rpi: snapshot.rpi,
    running: snapshot.running,
    phase: snapshot.running ? state.phase : null,
    streamingSummary: snapshot.running ? state.streamingSummary : '',
    lastSeq: snapshot.lastSeq,
    needsResync: false,
    warnings: snapshot.warnings,
  };
}
