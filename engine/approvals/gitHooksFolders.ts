import { realpathSync, statSync } from 'node:fs';
import { realpath } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { readSmallTextSync } from '../files/smallTextFile.js';
import { gitConfigEntries } from './gitConfigEntries.js';

/** Larger config files are not git config anyone wrote by hand; they are skipped. */
const maxConfigBytes = 1024 * 1024;
/** git's own limit on nested includes. */
const maxIncludeDepth = 10;

/**
 * The folders inside `root` that git may take hooks from through `core.hooksPath`, relative to `root`
 * with '/' separators ('' for the root itself). Every value found counts, not only the one git would
 * pick: the repository's config (`.git/config`, or through a `.git` file's `gitdir:` for worktrees and
 * submodules, with `commondir` and `config.worktree`), every `include.path` and `includeIf.*.path`
 * whatever its condition, and the user's global config. A relative value is taken from the work tree's
 * top, as git runs hooks there; a folder outside `root` cannot be written by the agent and is left out.
 *
 * The folder's config is the folder's own, untrusted data: it only ever adds places that ask.
 */
export async function gitHooksFolders(root: string): Promise<string[]> {
  return (await gitConfigPlaces(root)).hookFolders;
}

/**
 * What in `root` the git config makes git act on: the hooks folders (gitHooksFolders), and the config files
 * it includes (`include.path`, `includeIf.*.path`) that lie inside the folder, existing or not, relative
 * to `root`: written, such a file is as powerful as `.git/config` itself (`core.fsmonitor`, aliases, …).
 */
export async function gitConfigPlaces(root: string): Promise<{ hookFolders: string[]; includedConfigs: string[] }> {
  const values: string[] = [];
  const included: string[] = [];
  const read = new Set<string>();
  const readConfig = async (file: string, depth: number): Promise<void> => {
    if (depth > maxIncludeDepth || read.has(file)) return;
    read.add(file);
    const text = smallFile(file);
    if (text === null) return;
    for (const entry of gitConfigEntries(text)) {
      if (entry.value === null) continue;
      if (entry.section === 'core' && entry.subsection === null && entry.key === 'hookspath') values.push(entry.value);
      const isInclude = (entry.section === 'include' && entry.subsection === null) || (entry.section === 'includeif' && entry.subsection !== null);
      if (!isInclude || entry.key !== 'path') continue;
      const target = path.resolve(path.dirname(file), expandHome(entry.value));
      included.push(target);
      await readConfig(target, depth + 1);
    }
  };
  const repository = enclosingRepository(root);
  for (const file of [...globalConfigFiles(), ...(repository?.configFiles ?? [])]) await readConfig(file, 0);
  // A relative hooksPath is taken from the work tree's top: the folder itself, or a repository it lies in.
  const top = repository?.top ?? root;
  const folders = new Set<string>();
  for (const value of values) {
    if (value !== '') for (const rel of await insideRoot(root, path.resolve(top, expandHome(value)))) folders.add(rel);
  }
  const configs = new Set<string>();
  for (const file of included) {
    // .git/ is protected whole already; a file elsewhere (rare) has its real path taken synchronously.
    const lexical = relativeInside(root, file);
    if (lexical === null || lexical === '' || lexical === '.git' || lexical.startsWith('.git/')) continue;
    configs.add(lexical);
    const real = relativeInside(root, realPathOrSelf(file));
    if (real) configs.add(real);
  }
  return { hookFolders: [...folders], includedConfigs: [...configs] };
}

/** `lexical` and its real path, each as a path from `root` ('/' separators, '' for itself) when inside it. */
async function insideRoot(root: string, lexical: string): Promise<string[]> {
  const found = new Set<string>();
  for (const candidate of [lexical, await realpath(lexical).catch(() => lexical)]) {
    const rel = relativeInside(root, candidate);
    if (rel !== null) found.add(rel);
  }
  return [...found];
}

function relativeInside(root: string, file: string): string | null {
  const rel = path.relative(root, file);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel)) ? rel.split(path.sep).join('/') : null;
}

function realPathOrSelf(file: string): string {
  try {
    return realpathSync.native(file);
  } catch {
    return file;
  }
}

/**
 * The repository the folder belongs to, as git finds it: a `.git` in the folder or in the nearest folder
 * above that has one (a project opened as a subfolder of its repository); its work tree's top and config files.
 */
function enclosingRepository(root: string): { top: string; configFiles: string[] } | null {
  for (let top = root; ; top = path.dirname(top)) {
    const configFiles = repositoryConfigFiles(top);
    if (configFiles !== null) return { top, configFiles };
    if (path.dirname(top) === top) return null;
  }
}

/** The config files of the repository whose work tree's top is `top`; null when it has no `.git`. */
function repositoryConfigFiles(top: string): string[] | null {
  const dotGit = path.join(top, '.git');
  const pointer = smallFile(dotGit);
  if (pointer === null && !isFolder(dotGit)) return null;
  const gitDir = pointer === null ? dotGit : gitDirOf(pointer, top);
  if (gitDir === null) return [];
  const commonDir = smallFile(path.join(gitDir, 'commondir'));
  const common = commonDir === null ? gitDir : path.resolve(gitDir, commonDir.trim());
  return [path.join(common, 'config'), path.join(gitDir, 'config.worktree'), path.join(gitDir, 'config')];
}

/** The folder a `.git` file points to (`gitdir: ../.git/modules/lib`), as git reads it. */
function gitDirOf(pointer: string, root: string): string | null {
  const match = /^gitdir: (.+)$/m.exec(pointer);
  return match?.[1] ? path.resolve(root, match[1].trim()) : null;
}

function globalConfigFiles(): string[] {
  const home = os.homedir();
  const xdg = process.env['XDG_CONFIG_HOME'] || path.join(home, '.config');
  const chosen = process.env['GIT_CONFIG_GLOBAL'];
  return chosen ? [chosen] : [path.join(xdg, 'git', 'config'), path.join(home, '.gitconfig')];
}

function expandHome(value: string): string {
  return value === '~' || value.startsWith('~/') ? path.join(os.homedir(), value.slice(1)) : value;
}

/** A config file's text (see readSmallTextSync: a planted FIFO as `.git` or `gitdir:` cannot hang the engine). */
function smallFile(file: string): string | null {
  return readSmallTextSync(file, maxConfigBytes);
}

function isFolder(file: string): boolean {
  try {
    return statSync(file).isDirectory();
  } catch {
    return false;
  }
}
