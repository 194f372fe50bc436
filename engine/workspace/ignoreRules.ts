import { readFile } from 'node:fs/promises';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';

/** Folders the agent never lists, reads through listings, or counts, whatever .gitignore says. */
export const hiddenDirectories: ReadonlySet<string> = new Set(['.git', '.workbench']);

interface Layer {
  /** Folder of the .gitignore, relative to the workspace root ('' for the root), with '/' separators. */
  base: string;
  rules: Ignore;
  /** Whether any rule starts with '!'; only such files can re-include a path, which costs a fuller test. */
  negates: boolean;
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
    return new IgnoreRules([...this.layers, { base: relDir, rules: ignore().add(text), negates: /^\s*!/m.test(text) }]);
  }

  /**
   * Whether `relPath` (from the root, '/' separators) is ignored; folders are tested with a trailing '/'.
   * As in git, a deeper .gitignore overrides its ancestors, so its `!pattern` can re-include a path.
   */
  ignores(relPath: string, isDirectory: boolean): boolean {
    for (let index = this.layers.length - 1; index >= 0; index -= 1) {
      const layer = this.layers[index]!;
      const local = layer.base ? relPath.slice(layer.base.length + 1) : relPath;
      const candidate = isDirectory ? `${local}/` : local;
      if (!layer.negates) {
        if (layer.rules.ignores(candidate)) return true;
        continue;
      }
      const verdict = layer.rules.test(candidate);
      if (verdict.ignored || verdict.unignored) return verdict.ignored;
    }
    return false;
  }
}
