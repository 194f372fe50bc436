/** A refusal the caller can show as is: a run is active, nothing to resume, no model configured, no checkpoint. */
export class RunRefusedError extends Error {
  override name = 'RunRefusedError';
}
