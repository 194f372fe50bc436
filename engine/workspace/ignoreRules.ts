import ignore, { type Ignore } from 'ignore';
import { readGitignore } from './gitignoreText.js';

interface Layer {
  /** Folder of the .gitignore, relative to the workspace root ('' for the root), with '/' separators. */
  base: string;
  /** How many path segments `base` has (0 for the root). */
  baseDepth: number;
  /** Every rule, asked about the path relative to `base`. */
  rules: Ignore;
  /** Only the bare-name rules (`*.log`, `build/`), which match an entry by its name at any depth. */
  nameRules: Ignore;
  /**
   * How deep below `base` a rule with a '/' in it can match (`/dist` 1, `docs/*.md` 2, `**` any depth).
   * A deeper entry is asked of `nameRules` by its name alone: the verdict is the same, and the library's
   * per-path memo then holds one entry per distinct name instead of one per file of the walk.
   */
  pathDepth: number;
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

  /**
   * Rules in effect for the contents of `relDir`, excluding its own .gitignore (which a walk starting
   * there reads on entry): the root's and every ancestor's in between.
   */
  static forAncestorsOf(root: string, relDir: string): IgnoreRules {
    const parts = relDir.split('/');
    let rules = IgnoreRules.none.enter(root, '');
    for (let depth = 1; depth < parts.length; depth += 1) rules = rules.enter(root, parts.slice(0, depth).join('/'));
    return rules;
  }

  /** Whether folder `relDir`, or a folder it is inside, is ignored by the .gitignore files above it. */
  static ignoresFolder(root: string, relDir: string): boolean {
    if (relDir === '') return false;
    const parts = relDir.split('/');
    let rules = IgnoreRules.none.enter(root, '');
    for (let depth = 1; depth <= parts.length; depth += 1) {
      const folder = parts.slice(0, depth).join('/');
      if (rules.ignores(folder, true)) return true;
      if (depth < parts.length) rules = rules.enter(root, folder);
    }
    return false;
  }

  /**
   * Rules for `relDir` (a child folder of the one these rules belong to), reading its .gitignore if any.
   * Read synchronously: a .gitignore is small, and walks call this between synchronous folder listings.
   */
  enter(root: string, relDir: string): IgnoreRules {
    const text = readGitignore(root, relDir);
    if (text === null) return this;
    const { nameLines, pathDepth } = classify(text);
    const layer: Layer = {
      base: relDir,
      baseDepth: relDir ? segmentCount(relDir) : 0,
      rules: ignore().add(text),
      nameRules: ignore().add(nameLines),
      pathDepth,
      negates: /^\s*!/m.test(text),
    };
    return new IgnoreRules([...this.layers, layer]);
  }

  /**
   * Whether `relPath` (from the root, '/' separators; `depth` names) is ignored; folders are tested with a trailing '/'.
   * As in git, a deeper .gitignore overrides its ancestors, so its `!pattern` can re-include a path.
   */
  ignores(relPath: string, isDirectory: boolean, depth = segmentCount(relPath)): boolean {
    let name: string | undefined;
    for (let index = this.layers.length - 1; index >= 0; index -= 1) {
      const layer = this.layers[index]!;
      const byName = depth - layer.baseDepth > layer.pathDepth;
      const rules = byName ? layer.nameRules : layer.rules;
      const local = byName ? (name ??= relPath.slice(relPath.lastIndexOf('/') + 1)) : layer.base ? relPath.slice(layer.base.length + 1) : relPath;
      const candidate = isDirectory ? `${local}/` : local;
      if (!layer.negates) {
        if (rules.ignores(candidate)) return true;
        continue;
      }
      const verdict = rules.test(candidate);
      if (verdict.ignored || verdict.unignored) return verdict.ignored;
    }
    return false;
  }
}

/** Splits a .gitignore into its bare-name rules and the depth its other rules can reach. */
function classify(text: string): { nameLines: string[]; pathDepth: number } {
  const nameLines: string[] = [];
  let pathDepth = 0;
  for (const line of text.split(/\r?\n/)) {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const body = trimmed.replace(/^!/, '').replace(/\/$/, '');
    if (body.includes('/')) pathDepth = Math.max(pathDepth, reach(body));
    else nameLines.push(line);
  }
  return { nameLines, pathDepth };
}

/** Segments a pattern with a '/' spans (a leading '/' only anchors it); any depth with '**' or an escape. */
function reach(body: string): number {
  if (body.includes('**') || body.includes('\\')) return Infinity;
  return segmentCount(body.replace(/^\//, ''));
}

function segmentCount(relPath: string): number {
  let count = 1;
  for (let at = relPath.indexOf('/'); at !== -1; at = relPath.indexOf('/', at + 1)) count += 1;
  return count;
}
