import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateRequest } from '../../../engine/contract/index.js';
import { FolderChecks } from '../../../engine/settings/index.js';
import { useOpenedWorkbenches } from '../../support/openedWorkbenches.js';
import { useTempFolders } from '../../support/tempFolder.js';

describe('a folder’s check command, in Settings', () => {
  const tempFolder = useTempFolders('rpi-folder-checks-');
  const open = useOpenedWorkbenches();

  it('is kept per folder in the user’s config directory, never in the folder, and a bad one is refused with the reason', async () => {
    const [root, other, config] = [await tempFolder(), await tempFolder(), await tempFolder()];
    const workbench = await open(root, { folderChecks: new FolderChecks(config) });

    expect(await workbench.request('folder:check')).toEqual({ command: null });
    // As a host hands it over: validated at the boundary (trimmed, one line), then answered by the folder's handler.
    const valid = validateRequest('folder:set-check', { command: '  npm test -- ledger ' });
    if (!valid.ok) throw new Error(valid.error);
    expect(await workbench.request('folder:set-check', valid.value.payload as { command: string })).toEqual({ command: 'npm test -- ledger' });
    expect(validateRequest('folder:set-check', { command: 'npm test\nrm -rf /' })).toEqual({ ok: false, error: 'folder:set-check: command must be one line: a single command, e.g. npm test' });
    expect(validateRequest('folder:set-check', { command: '   ' })).toEqual({ ok: false, error: 'folder:set-check: command must be a command line, not empty (clear it to set none)' });

    const stored = JSON.parse(await readFile(path.join(config, 'folder-checks.json'), 'utf8')) as Record<string, string>;
    expect(stored).toEqual({ [root]: 'npm test -- ledger' });
    expect(await new FolderChecks(config).get(other)).toBeNull();
    expect((await readdir(root, { recursive: true })).filter((entry) => entry.includes('folder-checks') || entry.endsWith('.json'))).toEqual([]);

    expect(await workbench.request('folder:set-check', { command: null })).toEqual({ command: null });
    expect(JSON.parse(await readFile(path.join(config, 'folder-checks.json'), 'utf8'))).toEqual({});
  });
});
