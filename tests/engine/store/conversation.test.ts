import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Message } from '../../../engine/contract/index.js';
import { ConversationStore, conversationFile, loadConversation } from '../../../engine/store/conversation.js';
import { useTempFolders, writeTree } from '../../support/tempFolder.js';

const message = (id: string, text: string, role: Message['role'] = 'user'): Message => ({ id, role, text, ts: Number(id.slice(1)) });
const line = (value: unknown) => `${JSON.stringify(value)}\n`;

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

describe('ConversationStore', () => {
  const tempFolder = useTempFolders();
  const stateDir = async (conversation?: string) => {
    const dir = path.join(await tempFolder(), '.workbench');
    await writeTree(dir, conversation === undefined ? {} : { 'conversation.jsonl': conversation });
    return dir;
  };

  it('appends messages and loads them back in order', async () => {
    const dir = await stateDir();
    const store = new ConversationStore(dir);
    expect(await store.load()).toEqual({ messages: [], warnings: [] });
    const request = message('m1', 'Categorise my bank statement');
    const summary = message('m2', 'Done: 3 files written.', 'assistant');
    await store.append(request);
    await store.append(summary);
    expect(await new ConversationStore(dir).load()).toEqual({ messages: [request, summary], warnings: [] });
    expect(await readFile(conversationFile(dir), 'utf8')).toBe(line(request) + line(summary));
  });

  it('refuses to append something that is not a message, writing nothing', async () => {
    const dir = await stateDir();
    const store = new ConversationStore(dir);
    await expect(store.append({ id: '', role: 'user', text: 'x', ts: 1 })).rejects.toThrow();
    await expect(store.append({ ...message('m1', 'x'), role: 'system' } as unknown as Message)).rejects.toThrow();
    expect(await store.load()).toEqual({ messages: [], warnings: [] });
  });

  it('cuts a torn last line off before the next append, after warning about it', async () => {
    const intact = line(message('m1', 'first'));
    const dir = await stateDir(`${intact}{"id":"m2","role":"assi`);
    const store = new ConversationStore(dir);
    expect(await store.load()).toEqual({
      messages: [message('m1', 'first')],
      warnings: ['conversation.jsonl: line 2 is an incomplete write and will be cut off (not valid JSON)'],
    });
    await store.append(message('m3', 'again'));
    expect(await readFile(conversationFile(dir), 'utf8')).toBe(intact + line(message('m3', 'again')));
    expect((await store.load()).warnings).toEqual([]);
  });

  it('skips a corrupt line in the middle when loading and keeps it in the file', async () => {
    const content = `${line(message('m1', 'first'))}{"id":"m2",\n${line(message('m3', 'third'))}`;
    const dir = await stateDir(content);
    const store = new ConversationStore(dir);
    const loaded = await store.load();
    expect(loaded.messages.map((m) => m.id)).toEqual(['m1', 'm3']);
    expect(loaded.warnings).toEqual(['conversation.jsonl: skipped corrupt line 2 (not valid JSON)']);
    await store.append(message('m4', 'fourth'));
    expect(await readFile(conversationFile(dir), 'utf8')).toBe(content + line(message('m4', 'fourth')));
  });

  describe('truncateAt', () => {
    it('removes the message and everything after it, keeping what came before byte for byte', async () => {
      const before = `${line(message('m1', 'first'))}{"id":"m2", corrupt\n\n${JSON.stringify(message('m3', 'third'), null, 0)}\r\n`;
      const dir = await stateDir(`${before}${line(message('m4', 'fourth'))}${line(message('m5', 'fifth'))}`);
      const store = new ConversationStore(dir);
      await store.truncateAt('m4');
      expect(await readFile(conversationFile(dir), 'utf8')).toBe(before);
      expect((await store.load()).messages.map((m) => m.id)).toEqual(['m1', 'm3']);
    });

    it('empties the conversation when cut at the first message, and appends go on from there', async () => {
      const dir = await stateDir(line(message('m1', 'first')) + line(message('m2', 'second')));
      const store = new ConversationStore(dir);
      await store.truncateAt('m1');
      expect(await readFile(conversationFile(dir), 'utf8')).toBe('');
      await store.append(message('m3', 'again'));
      expect(await readFile(conversationFile(dir), 'utf8')).toBe(line(message('m3', 'again')));
    });

    it('names the id it cannot find and leaves the file alone', async () => {
      const content = line(message('m1', 'first'));
      const dir = await stateDir(content);
      await expect(new ConversationStore(dir).truncateAt('m7')).rejects.toThrow(
        'Cannot cut the conversation at message "m7": there is no message with that id.',
      );
      expect(await readFile(conversationFile(dir), 'utf8')).toBe(content);
    });
  });
});
