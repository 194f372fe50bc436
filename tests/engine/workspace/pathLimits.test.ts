import { existsSync } from 'node:fs';
import { mkdir, symlink } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { moveFile } from '../../../engine/tools/moveFile.js';
import { writeFile as writeFileTool } from '../../../engine/tools/writeFile.js';
import { pathLimitProblem, type PathLimits } from '../../../engine/workspace/pathLimits.js';
import { walkFiles } from '../../../engine/workspace/walkFiles.js';
import type { UnreachableSubtree } from '../../../engine/workspace/unreachable.js';
import { makeDeepFolders, useDeepTempFolders } from '../../support/deepFolders.js';
import { writeTree } from '../../support/tempFolder.js';
import { runTool, toolContextFor } from '../../support/toolContext.js';

const linux: PathLimits = { pathMax: 4096, nameMax: 255, system: 'Linux', pathMaxName: 'PATH_MAX', nameMaxName: 'NAME_MAX' };
const macos: PathLimits = { pathMax: 1024, nameMax: 255, system: 'macOS', pathMaxName: 'PATH_MAX', nameMaxName: 'NAME_MAX' };

describe('pathLimitProblem', () => {
  it('takes a path of up to PATH_MAX - 1 bytes (the limit counts the final NUL), and says how long one past it is', () => {
    expect(pathLimitProblem(`/${'x/'.repeat(2047)}`, { limits: linux })).toBeNull(); // 4,095 bytes
    expect(pathLimitProblem(`/${'x/'.repeat(2047)}y`, { limits: linux })).toBe('its full path would be 4,096 bytes; Linux takes paths of less than 4,096 bytes (PATH_MAX)');
    expect(pathLimitProblem(`/${'x/'.repeat(600)}`, { limits: macos })).toBe('its full path would be 1,201 bytes; macOS takes paths of less than 1,024 bytes (PATH_MAX)');
  });

  it('measures in bytes of UTF-8, not characters: 128 × "é" is one name too many', () => {
    expect(pathLimitProblem(`/root/${'e'.repeat(255)}`, { limits: linux })).toBeNull();
    expect(pathLimitProblem(`/root/${'é'.repeat(127)}`, { limits: linux })).toBeNull();
    expect(pathLimitProblem(`/root/${'é'.repeat(128)}`, { limits: linux })).toBe(
      `the name "${'é'.repeat(40)}…" is 256 bytes; Linux allows at most 255 for one name (NAME_MAX)`,
    );
    expect(pathLimitProblem(`/${'€'.repeat(1366)}`, { limits: { ...linux, nameMax: 10_000 } })).toBe(
      'its full path would be 4,099 bytes; Linux takes paths of less than 4,096 bytes (PATH_MAX)',
    );
  });

  it('judges only the names after `fromIndex` one by one: the root’s own exist already', () => {
    const root = `/${'r'.repeat(300)}`;
    expect(pathLimitProblem(`${root}/ok.txt`, { limits: linux, fromIndex: root.length })).toBeNull();
  });
});

describe.skipIf(process.platform !== 'linux')('tools refuse a path the system could not use whole', () => {
  const tempFolder = useDeepTempFolders('rpi-path-limits-');

  it('write_file: refused before anything is created, with which limit and how long the path would be', async () => {
    const root = await tempFolder();
    const context = await toolContextFor(root);
    const requested = `${'deep/'.repeat(1000)}x.txt`;
    const bytes = Buffer.byteLength(path.join(root, requested)).toLocaleString('en-US');
    await expect(runTool(writeFileTool, { path: requested, content: 'x' }, context)).rejects.toThrow(
      `: its full path would be ${bytes} bytes; Linux takes paths of less than 4,096 bytes (PATH_MAX); choose a shorter path.`,
    );
    await expect(runTool(writeFileTool, { path: `${'n'.repeat(256)}.txt`, content: 'x' }, context)).rejects.toThrow(/is 260 bytes; Linux allows at most 255 for one name \(NAME_MAX\)/);
    expect(existsSync(path.join(root, 'deep'))).toBe(false);
  });

  it('move_file: a destination past the limit is refused, and the source stays', async () => {
    const root = await tempFolder();
    await writeTree(root, { 'a.txt': 'a\n' });
    const context = await toolContextFor(root);
    await expect(runTool(moveFile, { from: 'a.txt', to: `${'m/'.repeat(2100)}a.txt` }, context)).rejects.toThrow(/Refused path "m\/m\/m.*…\/m\/m.*\/a\.txt \(2,101 levels down\)": its full path would be 4,\d{3} bytes/);
    expect(existsSync(path.join(root, 'a.txt'))).toBe(true);
  });

  it('a path that reaches past the limit through a symlink is refused by where it really leads', async () => {
    const root = await tempFolder();
    const long = Array.from({ length: 16 }, () => 'd'.repeat(250)).join('/');
    await mkdir(path.join(root, long), { recursive: true });
    await symlink(long, path.join(root, 'short'));
    const context = await toolContextFor(root);
    await expect(runTool(writeFileTool, { path: `short/${'f'.repeat(100)}.txt`, content: 'x' }, context)).rejects.toThrow(/its full path would be 4,\d{3} bytes; Linux takes paths/);
  });
});

describe.skipIf(process.platform !== 'linux')('walkFiles and what it cannot reach', () => {
  const tempFolder = useDeepTempFolders('rpi-walk-limits-');

  it('skips a file whose whole path passes PATH_MAX, and tells onUnreachable, once', async () => {
    const root = await tempFolder();
    await writeTree(root, { 'near.txt': '' });
    const deepest = makeDeepFolders(root, { depth: 16, name: 'd'.repeat(250), leaf: 'f'.repeat(200) });
    const found: string[] = [];
    const skipped: UnreachableSubtree[] = [];
    for await (const file of walkFiles(root, { onUnreachable: (subtree) => skipped.push(subtree) })) found.push(file.relPath);
    expect(found).toEqual(['near.txt']);
    expect(skipped).toEqual([{ relPath: `${deepest}/${'f'.repeat(200)}`, reason: expect.stringMatching(/^its full path is 4,\d{3} bytes; Linux takes paths of less than 4,096 bytes \(PATH_MAX\)$/) }]);
  });
});
