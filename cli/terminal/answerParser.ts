export type ApprovalChoice = 'approve' | 'deny' | 'edit' | 'view' | 'always' | 'request';
export type PlanChoice = 'approve' | 'edit' | 'reject' | 'view';
export type Parsed<T> = { ok: true; choice: T } | { ok: false; message: string };

const approvalWords: Record<string, ApprovalChoice> = {
  a: 'approve', approve: 'approve', y: 'approve', yes: 'approve',
  d: 'deny', deny: 'deny', n: 'deny', no: 'deny',
  e: 'edit', edit: 'edit',
  v: 'view', view: 'view', details: 'view',
  w: 'always', always: 'always', 'always allow': 'always',
  r: 'request', rest: 'request', request: 'request',
};

const planWords: Record<string, PlanChoice> = {
  a: 'approve', approve: 'approve', y: 'approve', yes: 'approve',
  e: 'edit', edit: 'edit',
  r: 'reject', reject: 'reject', n: 'reject', no: 'reject',
  v: 'view', view: 'view', show: 'view',
};

/** Reads an answer to an approval request; "always allow" and "rest of this request" are only accepted where the request offers them. */
export function parseApprovalAnswer(input: string, { canAlwaysAllow, canAllowForRequest = false }: { canAlwaysAllow: boolean; canAllowForRequest?: boolean }): Parsed<ApprovalChoice> {
  const choice = approvalWords[normalised(input)];
  const offered = [['a', 'approve'], ['d', 'deny'], ['e', 'edit'], ['v', 'view'], ...(canAllowForRequest ? [['r', 'rest of this request']] : []), ...(canAlwaysAllow ? [['w', 'always allow']] : [])];
  const keys = `${offered.slice(0, -1).map(([key]) => key).join(', ')} or ${offered.at(-1)?.[0] ?? ''}`;
  if (!choice) return { ok: false, message: `Please answer ${keys} (${offered.map(([, word]) => word).join(', ')}).` };
  if (choice === 'always' && !canAlwaysAllow) return { ok: false, message: '"Always allow" is only offered for simple commands: approve this request once (a) instead.' };
  if (choice === 'request' && !canAllowForRequest) return { ok: false, message: '"Rest of this request" is not offered for this action (a protected path always asks): approve it once (a) instead.' };
  return { ok: true, choice };
}

/** Reads an answer to the plan review. */
export function parsePlanAnswer(input: string): Parsed<PlanChoice> {
  const choice = planWords[normalised(input)];
  return choice ? { ok: true, choice } : { ok: false, message: 'Please answer a, e, r or v (approve, edit, reject, view the plan again).' };
}

function normalised(input: string): string {
  return input.trim().toLowerCase().replace(/\s+/g, ' ');
}
