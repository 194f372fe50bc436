import { mkdir, readFile, symlink } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PromptCacheKeys } from '../../../engine/settings/index.js';
import { useTempFolders } from '../../support/tempFolder.js';

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('PromptCacheKeys', () => {
  const tempFolder = useTempFolders();

  it('gives a folder a random id, not one made from its path, and the same id every time after, in this process or the next', async () => {
    const config = await tempFolder();
    const folder = await tempFolder();

    const key = await new PromptCacheKeys(config).keyFor(folder);

    expect(key).toMatch(uuid);
    expect(key).not.toContain(path.basename(folder));
    expect(await new PromptCacheKeys(config).keyFor(folder)).toBe(key);
    expect(JSON.parse(await readFile(path.join(config, 'prompt-cache-keys.json'), 'utf8'))).toEqual({ [folder]: key });
  });

  it('gives each folder its own id, and another user config other ids for the same folder', async () => {
    const [config, otherConfig, first, second] = await Promise.all([tempFolder(), tempFolder(), tempFolder(), tempFolder()]);
    const keys = new PromptCacheKeys(config);

    const [firstKey, secondKey] = [await keys.keyFor(first), await keys.keyFor(second)];

    expect(firstKey).not.toBe(secondKey);
    expect(await new PromptCacheKeys(otherConfig).keyFor(first)).not.toBe(firstKey);
  });

  it('keys a folder by its real path, so a link to it shares its id', async () => {
    const config = await tempFolder();
    const root = await tempFolder();
    const folder = path.join(root, 'project');
    await mkdir(folder);
    await symlink(folder, path.join(root, 'link'));
    const keys = new PromptCacheKeys(config);

    expect(await keys.keyFor(path.join(root, 'link'))).toBe(await keys.keyFor(folder));
  });

  it('hands one id to two asking at once for a new folder', async () => {
    const config = await tempFolder();
    const folder = await tempFolder();
    const keys = new PromptCacheKeys(config);

    const [one, other] = await Promise.all([keys.keyFor(folder), keys.keyFor(folder)]);

    expect(one).toBe(other);
  });
});
