import { z } from 'zod';
import type { WorkbenchEvent } from './events.js';
import type { Result } from './requests.js';

/**
 * The browser host's WebSocket frames: the same requests and events as Electron's IPC, as JSON.
 * A request's channel and payload are validated by the dispatcher like any other request.
 */
export const socketRequestSchema = z.strictObject({
  type: z.literal('request'),
  id: z.number().int().nonnegative(),
  channel: z.string(),
  payload: z.unknown(),
});
export type SocketRequest = z.infer<typeof socketRequestSchema>;

export type SocketServerMessage =
  | { type: 'response'; id: number; response: Result<unknown> }
  | { type: 'event'; event: WorkbenchEvent }
  /** A frame that could not be read as a request at all. */
  | { type: 'error'; error: string };

