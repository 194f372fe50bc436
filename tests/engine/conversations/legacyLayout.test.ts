import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openUsedWorkbench } from '../../../engine/index.js';
import { conversationFolders, onlyConversationFolder } from '../../support/conversationFolders.js';
import { filesUnder, legacyConversationFiles, legacyRequests, writeLegacyFolder } from '../../support/legacyFolder.js';
import { useOpenedWorkbenches } from '../../support/openedWorkbenches.js';
import { recordEvents } from '../../support/rpiScript.js';
import { useTempFolders } from '../../support/tempFolder.js';

const moved = /This folder's conversation was moved into \.workbench\/conversations\/c-[0-9a-f]{32}\//;

describe('a folder in the single-conversation layout', () => {
  const tempFolder = useTempFolders('rpi-legacy-');
  const open = useOpenedWorkbenches();

  it('reads as its one conversation, and reading moves and creates nothing', async () => {
    const root = await tempFolder();
    await writeLegacyFolder(root);
    const before = await filesUnder(path.join(root, '.workbench'));

    const workbench = await openUsedWorkbench(root);
    if (!workbench) throw new Error('the folder was used before');
    const snapshot = await workbench.request('workbench:snapshot');
    const { conversations } = await workbench.request('conversations:list');
    const plan = await workbench.request('session:run-file', { messageId: legacyRequests.first.id, file: 'plan' });
    await workbench.close();

    expect(snapshot.conversation.map((message) => message.text)).toEqual(['Sort the invoices', 'Sorted them.', 'Now total them']);
    expect(snapshot.rpi.items.map((item) => `${item.status} ${item.label}`)).toEqual(['done Read invoices', 'pending Add totals']);
    expect(snapshot.resumable).toBe(true);
    expect(conversations).toEqual([
      { id: snapshot.conversationId, title: 'Sort the invoices', created: legacyRequests.first.ts, updated: legacyRequests.second.ts, requests: 2, running: false },
    ]);
    expect(plan).toMatchObject({ text: expect.stringContaining('- [x] 1. Sort') });
    expect(await filesUnder(path.join(root, '.workbench'))).toEqual(before);
    expect(await readdir(path.join(root, '.workbench'))).not.toContain('conversations');
  });

  it('is moved whole by the first change, keeps its id, and says so once', async () => {
    const root = await tempFolder();
    await writeLegacyFolder(root);
    const conversation = await legacyConversationFiles(root);
    const workbench = await open(root);
    const events = recordEvents(workbench);
    const { conversationId } = await workbench.request('workbench:snapshot');

    const renamed = await workbench.request('conversations:rename', { conversationId: conversationId!, title: 'Invoices' });
    await workbench.request('conversations:new');

    expect(renamed).toMatchObject({ id: conversationId, title: 'Invoices', requests: 2 });
    const folder = (await conversationFolders(root))[conversationId!]!;
    const { 'meta.json': meta, ...movedFiles } = await filesUnder(folder);
    expect(movedFiles).toEqual(Object.fromEntries(Object.entries(conversation)));
    expect(JSON.parse(meta!)).toEqual({ id: conversationId, created: legacyRequests.first.ts, title: 'Invoices' });
    expect(await readdir(path.join(root, '.workbench'))).not.toEqual(expect.arrayContaining(['conversation.jsonl']));
    expect((await readdir(path.join(root, '.workbench'))).filter((name) => ['rpi', 'runs', 'conversation.jsonl'].includes(name))).toEqual([]);
    const notices = events.filter((event) => event.type === 'warning' && moved.test(event.message));
    expect(notices).toHaveLength(1);
    const resumed = await workbench.request('workbench:snapshot', { conversationId: conversationId! });
    expect(resumed.conversation).toHaveLength(3);
    expect(resumed.rpi.items.map((item) => item.status)).toEqual(['done', 'pending']);
    expect(resumed.warnings.filter((warning) => moved.test(warning))).toHaveLength(1);
  });

  it('starts no conversation folder for a folder never used until a request is sent', async () => {
    const root = await tempFolder();
    const workbench = await open(root);
    expect(await workbench.request('workbench:snapshot')).toMatchObject({ conversationId: null, conversations: [], conversation: [] });
    expect(await conversationFolders(root)).toEqual({});
    await workbench.request('conversations:new');
    await onlyConversationFolder(root);
  });
});
