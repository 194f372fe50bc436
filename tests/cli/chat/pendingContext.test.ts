import { describe, expect, it } from 'vitest';
import { PendingContext } from '../../../cli/chat/pendingContext.js';
import { contextItemLimits } from '../../../engine/contract/contextItemLimits.js';
import { useTempFolders, writeTree } from '../../support/tempFolder.js';

const { maxItems } = contextItemLimits;
const names = (count: number) => Array.from({ length: count }, (_, index) => `f${index + 1}.txt`);

describe('what /context attaches to the next request in the chat: never more than one request may carry', () => {
  const tempFolder = useTempFolders('rpi-pending-context-');

  async function folderWith(count: number): Promise<string> {
    const root = await tempFolder();
    await writeTree(root, Object.fromEntries(names(count).map((name) => [name, `${name}\n`])));
    return root;
  }

  it(`refuses the ${maxItems + 1}st /context with a line saying why, keeping the ${maxItems} attached; one already attached is no news`, async () => {
    const context = new PendingContext(await folderWith(maxItems + 1));
    for (const name of names(maxItems)) await context.add(name);
    expect(context.count).toBe(maxItems);

    await expect(context.add(`f${maxItems + 1}.txt`)).rejects.toThrow(
      `/context f${maxItems + 1}.txt: not attached, ${maxItems} items are already attached and that is as many as one request may carry. /context clear drops them.`,
    );
    expect(context.count).toBe(maxItems);
    expect(await context.add('f1.txt')).toBe('Already attached: file f1.txt.');
    const { items } = await context.take('Go');
    expect(items).toHaveLength(maxItems);
  });

  it('refuses a request whose @words would take it over the limit before it is sent, and the attached items still go with the next one', async () => {
    const context = new PendingContext(await folderWith(maxItems + 2));
    for (const name of names(maxItems - 1)) await context.add(name);

    await expect(context.take(`Compare @f${maxItems}.txt with @f${maxItems + 1}.txt and @f1.txt`)).rejects.toThrow(
      `Nothing was sent: this request would carry ${maxItems + 1} items (${maxItems - 1} attached with /context, 2 named by its @words), and one request may carry at most ${maxItems}.`,
    );
    expect(context.count).toBe(maxItems - 1);

    const { items } = await context.take(`Compare with @f${maxItems}.txt`);
    expect(items.map((item) => (item.kind === 'note' ? item.text : item.path))).toEqual(names(maxItems));
    expect(context.count).toBe(0);
  });

  it('puts back only the attached items when the engine refuses the request, never its @words: the list cannot grow until every request is refused', async () => {
    const context = new PendingContext(await folderWith(maxItems));
    for (const name of names(maxItems - 2)) await context.add(name);

    for (let attempt = 0; attempt < 3; attempt += 1) {
      const taken = await context.take(`Use @f${maxItems - 1}.txt and @f${maxItems}.txt`);
      expect(taken.items).toHaveLength(maxItems);
      taken.putBack();
      expect(context.count).toBe(maxItems - 2);
    }
  });
});
