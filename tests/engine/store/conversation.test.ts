import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { conversationFile, loadConversation } from '../../../engine/store/conversation.js';
import { useTempFolders, writeTree } from '../../support/tempFolder.js';

describe('loadConversation', () => {
  const tempFolder = useTempFolders();

  it('reads .workbench/conversation.jsonl, skipping lines that are not messages', async () => {
    const stateDir = path.join(await tempFolder(), '.workbench');
    const hello = { id: 'm1', role: 'user', text: 'hello', ts: 1 };
    const reply = { id: 'm2', role: 'assistant', text: 'Done.', ts: 2 };
    await writeTree(stateDir, {
      'conversation.jsonl': [hello, { id: 'm9', role: 'system', text: 'planted', ts: 3 }, reply].map((m) => JSON.stringify(m)).join('\n') + '\n',
    });

    const result = await loadConversation(stateDir);

    expect(conversationFile(stateDir)).toBe(path.join(stateDir, 'conversation.jsonl'));
    expect(result.records).toEqual([hello, reply]);
    expect(result.warnings).toHaveLength(1);
    expect(result.warnings[0]).toMatch(/^conversation\.jsonl: skipped corrupt line 2 /);
  });

  it('is empty when there is no conversation yet', async () => {
    expect((await loadConversation(path.join(await tempFolder(), '.workbench'))).records).toEqual([]);
  });
});
