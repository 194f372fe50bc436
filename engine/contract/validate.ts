import type { z } from 'zod';
import { isRequestChannel, type RequestChannel } from './channels.js';
import { requestSchemas, type ParsedPayload, type Result } from './requests.js';

export interface ValidRequest<C extends RequestChannel = RequestChannel> {
  channel: C;
  payload: ParsedPayload<C>;
}

/**
 * Checks an untrusted (channel, payload) pair. The error names the channel, the field and the rule,
 * e.g. `session:send: prompt must be a non-empty string`.
 */
export function validateRequest(channel: unknown, payload: unknown): Result<ValidRequest> {
  if (!isRequestChannel(channel)) {
    const shown = typeof channel === 'string' ? JSON.stringify(channel) : typeof channel;
    return { ok: false, error: `unknown request channel ${shown}` };
  }
  const parsed = requestSchemas[channel].safeParse(payload ?? {});
  if (!parsed.success) return { ok: false, error: `${channel}: ${describeIssue(parsed.error.issues[0])}` };
  return { ok: true, value: { channel, payload: parsed.data as ParsedPayload<typeof channel> } };
}

function describeIssue(issue: z.core.$ZodIssue | undefined): string {
  if (!issue) return 'invalid request';
  if (issue.code === 'unrecognized_keys') {
    const keys = issue.keys.map((key) => JSON.stringify(key)).join(', ');
    return `unexpected field${issue.keys.length > 1 ? 's' : ''} ${keys}`;
  }
  if (issue.path.length === 0) {
    return issue.code === 'invalid_type' ? 'payload must be an object' : issue.message;
  }
  return `${issue.path.map(String).join('.')} ${issue.message}`;
}
