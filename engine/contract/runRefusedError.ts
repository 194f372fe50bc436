/**
 * A refusal the caller can show as is: a run is active, nothing to resume, no model configured, no
 * checkpoint. Part of the protocol: hosts recognise it (the CLI exits 2 on it, not 1).
 */
export class RunRefusedError extends Error {
  override name = 'RunRefusedError';
}
