/**
 * One of `forms` (regular-expression fragments) used as a verb: whole words only ("rerun", "runtime" and
 * "prune" are not "run"), and not after a determiner or hyphen that makes it a noun or a modifier ("the
 * last run", "a delete button", "dry-run").
 */
function action(...forms: readonly string[]): RegExp {
  const notANoun = String.raw`(?<!\b(?:a|an|the|each|every|this|that|its|last|next|per|dry|test)\s)(?<!-)`;
  return new RegExp(`${notANoun}\\b(?:${forms.join('|')})\\b`, 'i');
}

/** Tried in order; the first match gives the reason. */
const riskyWording: ReadonlyArray<readonly [readonly RegExp[], string]> = [
  [
    [
      action('delet(?:e|es|ing)', 'eras(?:e|es|ing)', 'wip(?:e|es|ing)', 'purg(?:e|es|ing)', 'destroy(?:s|ing)?'),
      /\brm\b/i,
      // "Remove unused import" edits code; removing files, folders, branches or data deletes them.
      /\bremov(?:e|es|ing)\b[^.;]*\b(?:files?|folders?|director(?:y|ies)|dirs?|databases?|tables?|branch(?:es)?|repos?|repositor(?:y|ies))\b/i,
    ],
    'it deletes files or data',
  ],
  [
    [
      /\bforce[- ]?push(?:es|ed|ing)?\b/i,
      /--force\b/i,
      /\breset\s+--hard\b/i,
      /\bhard\s+reset\b/i,
      /\bgit\s+(?:reset|clean|rebase|filter-branch|filter-repo|push\s+-f)\b/i,
      /\brewrit(?:e|es|ing)\b[^.;]*\bhistory\b/i,
    ],
    'it forces, resets or rewrites git history',
  ],
  [
    [
      /\b(?:drop(?:s|ping)?|truncat(?:e|es|ing)|alter)\s+(?:the\s+)?(?:\w+\s+)?(?:tables?|databases?|columns?|schemas?|collections?|index)\b/i,
      /\b(?:database|db|schema)\s+migrations?\b/i,
      /\bmigrat(?:e|es|ing|ion|ions)\b[^.;]*\b(?:database|db|schema|tables?|columns?)\b/i,
      /\b(?:run|apply|applies|applying|revert|reverts|reverting|roll\s*back|rolling\s+back)\b[^.;]*\bmigrations?\b/i,
      /\bmigrations\//i,
    ],
    'it changes the database',
  ],
  [
    [/\b(?:chmod|chown|chgrp|icacls|setuid|sudo)\b/i, /\b(?:file|folder|directory)\s+permissions\b/i, /\bmake\b[^.;]*\bexecutable\b/i],
    'it changes permissions',
  ],
  [
    [
      action('deploy(?:s|ing)?', 'publish(?:es|ing)?'),
      /\bgit\s+push\b/i,
      /\bpush(?:es|ing)?\s+(?:to\s+)?(?:the\s+)?(?:origin|remote|upstream|branch|changes|commits?)\b/i,
    ],
    'it pushes, publishes or deploys outside this folder',
  ],
  [
    [
      action('(?:un)?install(?:s|ing)?'),
      /\b(?:adds?|adding|upgrad(?:e|es|ing)|updat(?:e|es|ing)|bump(?:s|ing)?|downgrad(?:e|es|ing))\b[^.;]*\b(?:dependency|dependencies|deps)\b/i,
    ],
    'it installs or changes packages',
  ],
  [
    [
      action('runs?', 'execut(?:e|es|ing)', 'exec'),
      /\bshell\s+commands?\b/i,
      /`(?:npm|npx|pnpm|yarn|pip3?|python3?|node|git|make|cargo|go|bash|sh|curl|wget|docker|mv|cp)\b/i,
    ],
    'it runs commands',
  ],
];

/**
 * Why this plan item's text looks risky (deleting, running commands, installing, force/reset,
 * migrations, permissions…), or null. A flag only draws the reviewer's eye to the item, so the wording
 * test leans towards flagging: "Add a migration to drop the users table" is flagged, and so is the odd
 * harmless sentence that reads like an action.
 */
export function riskOfPlanItem(text: string): string | null {
  const risky = riskyWording.find(([patterns]) => patterns.some((pattern) => pattern.test(text)));
  return risky?.[1] ?? null;
}
