import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { planText } from './rpiScript.js';
import { writeTree } from './tempFolder.js';

const first = { id: 'm-00000000-0000-4000-8000-000000000001', role: 'user', text: 'Sort the invoices', ts: 1_700_000_000_000 };
const answer = { id: 'm-00000000-0000-4000-8000-000000000002', role: 'assistant', text: 'Sorted them.', ts: 1_700_000_060_000 };
const second = { id: 'm-00000000-0000-4000-8000-000000000003', role: 'user', text: 'Now total them', ts: 1_700_000_120_000 };

/** The requests of the folder legacyFolder writes, oldest first. */
export const legacyRequests = { first, second };

/**
 * `.workbench/` in the single-conversation layout, after two requests: conversation.jsonl at its top, the
 * second request's run in rpi/ (stopped at its second step), the first one's kept in runs/<its id>/.
 */
export async function writeLegacyFolder(root: string): Promise<void> {
  await writeTree(root, {
    'invoices.csv': 'a,1\nb,2\n',
    '.workbench/.gitignore': '*\n',
    '.workbench/conversation.jsonl': `${[first, answer, second].map((message) => JSON.stringify(message)).join('\n')}\n`,
    '.workbench/rpi/research.md': 'Two invoices.\n',
    '.workbench/rpi/plan.md': planText('Read invoices', 'Add totals').replace('- [ ] 1.', '- [x] 1.'),
    '.workbench/rpi/run.json': `${JSON.stringify({ messageId: second.id, request: second.text, startedAt: second.ts })}\n`,
    [`.workbench/runs/${first.id}/research.md`]: 'Invoices found.\n',
    [`.workbench/runs/${first.id}/plan.md`]: planText('Sort').replace('- [ ] 1.', '- [x] 1.'),
  });
}

/** Every file under `dir` (relative path → content), to compare a conversation before and after a move. */
export async function filesUnder(dir: string): Promise<Record<string, string>> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries.filter((entry) => entry.isFile());
  const pairs = await Promise.all(
    files.map(async (entry) => {
      const file = path.join(entry.parentPath, entry.name);
      return [path.relative(dir, file), await readFile(file, 'utf8')] as const;
    }),
  );
  return Object.fromEntries(pairs.sort(([a], [b]) => a.localeCompare(b)));
}

/** The conversation's own files as the single-conversation layout keeps them at the top of `.workbench/`. */
export async function legacyConversationFiles(root: string): Promise<Record<string, string>> {
  const all = await filesUnder(path.join(root, '.workbench'));
  return Object.fromEntries(Object.entries(all).filter(([file]) => /^(conversation\.jsonl|rpi\/|runs\/)/.test(file)));
}
