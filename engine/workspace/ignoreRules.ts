import { readFile } from 'node:fs/promises';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';

/** Folders the agent never lists, reads through listings, or counts, whatever .gitignore says. */
export const hiddenDirectories: ReadonlySet<string> = new Set(['.git', '.workbench']);

interface Layer {
  /** Folder of the .gitignore, relative to the workspace root ('' for the root), with '/' separators. */
  base: string;
  rules: Ignore;
}

/**
 * The .gitignore files in effect for one folder: its own plus those of every ancestor up to the root,
 * each applied relative to the folder it sits in, as git does.
 */
export class IgnoreRules {
  private constructor(private readonly layers: readonly Layer[]) {}

  static readonly none = new IgnoreRules([]);

  /** Rules for `relDir` (a child folder of the one these rules belong to), reading its .gitignore if any. */
  async enter(root: string, relDir: string): Promise<IgnoreRules> {
    let text: string;
    try {
      text = await readFile(path.join(root, relDir, '.gitignore'), 'utf8');
    } catch {
      return this;
    }
    return new IgnoreRules([...this.layers, { base: relDir, rules: ignore().add(text) }]);
  }

  /**
   * Whether `relPath` (from the root, '/' separators) is ignored; folders are tested with a trailing '/'.
   * As in git, a deeper .gitignore overrides its ancestors, so its `!pattern` can re-include a path.
   */
  ignores(relPath: string, isDirectory: boolean): boolean {
    let ignored = false;
    for (const layer of this.layers) {
      const local = layer.base ? relPath.slice(layer.base.length + 1) : relPath;
      const verdict = layer.rules.test(isDirectory ? `${local}/` : local);
      if (verdict.ignored) ignored = true;
      else if (verdict.unignored) ignored = false;
    }
    return ignored;
  }
}
