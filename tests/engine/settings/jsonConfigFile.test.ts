import { spawnSync } from 'node:child_process';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { JsonConfigFile } from '../../../engine/settings/jsonConfigFile.js';
import { useTempFolders } from '../../support/tempFolder.js';

describe('JsonConfigFile', () => {
  const tempFolder = useTempFolders();

  it('clears temp files left by a writer that died mid-write, and keeps a live writer’s', async () => {
    const dir = await tempFolder();
    const deadPid = spawnSync(process.execPath, ['-e', '']).pid!;
    const stale = `.settings.json.${deadPid}.0badf00d.tmp`;
    const live = `.settings.json.${process.ppid}.1badf00d.tmp`;
    await writeFile(path.join(dir, stale), '{"half": ');
    await writeFile(path.join(dir, live), '{"in progress": ');
    const file = new JsonConfigFile(dir, 'settings.json', z.object({ model: z.string() }), () => ({ model: 'default' }));

    await file.write({ model: 'gpt-test' });

    expect((await readdir(dir)).sort()).toEqual([live, 'settings.json'].sort());
    expect(JSON.parse(await readFile(file.file, 'utf8'))).toEqual({ model: 'gpt-test' });
  });
});
