import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const sourceExtensions = /\.(ts|tsx|mts|cts)$/;

interface ImportRef {
  specifier: string;
  /** Erased at build time (`import type …`, `export type … from`); anything else reaches the bundle. */
  typeOnly: boolean;
}

/**
 * Every module specifier in a source file: static imports and re-exports, side-effect imports, dynamic
 * `import()` and `require()`. `import { type A } from 'x'` counts as a value import: with
 * verbatimModuleSyntax it is kept as `import {} from 'x'`, which still loads 'x'.
 */
function importsOf(source: string): ImportRef[] {
  const refs: ImportRef[] = [];
  const staticForm = /^\s*(?:import|export)\s+(type\s+)?([\w$*{}\s,]*?)\s*from\s*['"]([^'"]+)['"]/gm;
  for (const match of source.matchAll(staticForm)) refs.push({ specifier: match[3] ?? '', typeOnly: match[1] !== undefined });
  for (const match of source.matchAll(/^\s*import\s*['"]([^'"]+)['"]/gm)) refs.push({ specifier: match[1] ?? '', typeOnly: false });
  for (const match of source.matchAll(/\b(?:import|require)\s*\(\s*['"]([^'"]+)['"]\s*\)/g)) {
    refs.push({ specifier: match[1] ?? '', typeOnly: false });
  }
  return refs;
}

type Target =
  | { kind: 'local'; path: string }
  | { kind: 'builtin'; name: string }
  | { kind: 'package'; name: string };

const builtins = new Set(builtinModules);

/** What a specifier in `file` (repo-relative) points at: a repo path, a node builtin or a package name. */
function targetOf(file: string, specifier: string): Target {
  if (specifier.startsWith('.') || specifier.startsWith('/')) {
    const absolute = path.resolve(repoRoot, path.dirname(file), specifier);
    return { kind: 'local', path: path.relative(repoRoot, absolute).split(path.sep).join('/') };
  }
  if (specifier.startsWith('node:') || builtins.has(specifier) || builtins.has(specifier.split('/')[0] ?? '')) {
    return { kind: 'builtin', name: specifier };
  }
  const parts = specifier.split('/');
  return { kind: 'package', name: (specifier.startsWith('@') ? parts.slice(0, 2) : parts.slice(0, 1)).join('/') };
}

interface SourceFile {
  /** Repo-relative, '/' separators. */
  file: string;
  refs: (ImportRef & { target: Target })[];
}

function sourceFiles(dir: string): SourceFile[] {
  const root = path.join(repoRoot, dir);
  if (!existsSync(root)) return [];
  const entries = readdirSync(root, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && sourceExtensions.test(entry.name))
    .map((entry) => {
      const file = path.relative(repoRoot, path.join(entry.parentPath, entry.name)).split(path.sep).join('/');
      const refs = importsOf(readFileSync(path.join(repoRoot, file), 'utf8'));
      return { file, refs: refs.map((ref) => ({ ...ref, target: targetOf(file, ref.specifier) })) };
    })
    .sort((a, b) => a.file.localeCompare(b.file));
}

const under = (target: Target, ...dirs: string[]) => target.kind === 'local' && dirs.some((dir) => target.path.startsWith(`${dir}/`));

/** One line per offending import, e.g. `renderer/src/x.ts imports "node:fs" (a node builtin)`. */
function violations(files: SourceFile[], rule: (ref: SourceFile['refs'][number]) => string | null): string[] {
  return files.flatMap(({ file, refs }) =>
    refs.flatMap((ref) => {
      const why = rule(ref);
      return why === null ? [] : [`${file} imports "${ref.specifier}" (${why})`];
    }),
  );
}

/** The source file a local import path names: `x.js` is written for `x.ts` / `x.tsx`. */
function sourceFor(localPath: string): string | null {
  const stem = localPath.replace(/\.(js|jsx|mjs|cjs|ts|tsx)$/, '');
  const candidates = [localPath, `${stem}.ts`, `${stem}.tsx`, `${stem}.mts`, `${stem}/index.ts`];
  return candidates.find((candidate) => sourceExtensions.test(candidate) && existsSync(path.join(repoRoot, candidate))) ?? null;
}

interface RuntimeImport {
  /** The file that holds the import. */
  file: string;
  specifier: string;
  target: Target;
}

/**
 * Every value import that loading `entry` executes: its own and, transitively, those of the local files it
 * loads (type-only imports are erased and not followed). This is what a bundle built from `entry` contains.
 */
function runtimeImports(entry: string): RuntimeImport[] {
  const found: RuntimeImport[] = [];
  const queue = [entry];
  const visited = new Set<string>();
  while (queue.length > 0) {
    const file = queue.shift() ?? '';
    if (visited.has(file)) continue;
    visited.add(file);
    for (const ref of importsOf(readFileSync(path.join(repoRoot, file), 'utf8'))) {
      if (ref.typeOnly) continue;
      const target = targetOf(file, ref.specifier);
      found.push({ file, specifier: ref.specifier, target });
      const local = target.kind === 'local' ? sourceFor(target.path) : null;
      if (local) queue.push(local);
    }
  }
  return found;
}

/** The part of the contract a sandboxed page may load: contract files only, and no package (zod) at all. */
const pageSafe = (target: Target) => target.kind === 'local' && target.path.startsWith('engine/contract/');

describe('importsOf (the scanner the rules rely on)', () => {
  it('finds every kind of specifier and tells type-only ones apart', () => {
    const source = [
      "import { a, b } from './values.js';",
      'import {',
      '  c,',
      '  type D,',
      "} from '../multi/line.js';",
      "import type { E } from 'types-only';",
      "import { type F } from 'inline-type-only';",
      "import G, * as H from 'default-and-namespace';",
      "export * from './reexport.js';",
      "export type { I } from './type-reexport.js';",
      "export { j as k } from '@scope/pkg/sub';",
      "import './side-effect.css';",
      "const lazy = await import('./lazy.js');",
      "const old = require('old-style');",
      "const text = 'this import x from \"nowhere\" is only a string';",
      "export const from = 'not an import';",
    ].join('\n');
    expect(importsOf(source)).toEqual([
      { specifier: './values.js', typeOnly: false },
      { specifier: '../multi/line.js', typeOnly: false },
      { specifier: 'types-only', typeOnly: true },
      { specifier: 'inline-type-only', typeOnly: false },
      { specifier: 'default-and-namespace', typeOnly: false },
      { specifier: './reexport.js', typeOnly: false },
      { specifier: './type-reexport.js', typeOnly: true },
      { specifier: '@scope/pkg/sub', typeOnly: false },
      { specifier: './side-effect.css', typeOnly: false },
      { specifier: './lazy.js', typeOnly: false },
      { specifier: 'old-style', typeOnly: false },
    ]);
  });

  it('classifies targets', () => {
    expect(targetOf('renderer/src/store/state.ts', '../../../engine/contract/index.js')).toEqual({ kind: 'local', path: 'engine/contract/index.js' });
    expect(targetOf('engine/x.ts', 'node:fs/promises')).toEqual({ kind: 'builtin', name: 'node:fs/promises' });
    expect(targetOf('engine/x.ts', 'fs/promises')).toEqual({ kind: 'builtin', name: 'fs/promises' });
    expect(targetOf('engine/x.ts', 'path')).toEqual({ kind: 'builtin', name: 'path' });
    expect(targetOf('renderer/x.ts', 'react-dom/client')).toEqual({ kind: 'package', name: 'react-dom' });
    expect(targetOf('x.ts', '@scope/pkg/deep')).toEqual({ kind: 'package', name: '@scope/pkg' });
  });

  it('sees the real source tree', () => {
    const engine = sourceFiles('engine');
    expect(engine.length).toBeGreaterThan(10);
    const requests = engine.find((source) => source.file === 'engine/contract/requests.ts');
    expect(requests?.refs.map((ref) => ref.specifier)).toContain('zod');
  });
});

describe('architecture boundaries', () => {
  it('engine/ never reaches into the hosts or UI libraries', () => {
    const forbiddenPackages = new Set(['electron', 'react', 'react-dom', 'zustand']);
    const found = violations(sourceFiles('engine'), ({ target }) => {
      if (under(target, 'electron', 'renderer', 'cli')) return 'engine/ must not import host or UI code';
      if (target.kind === 'package' && forbiddenPackages.has(target.name)) return `engine/ must not depend on ${target.name}`;
      return null;
    });
    expect(found).toEqual([]);
  });

  it('renderer/ talks to the engine only through the contract, and never to node or the hosts', () => {
    const files = sourceFiles('renderer');
    expect(files.length).toBeGreaterThan(0);
    const found = violations(files, ({ target, typeOnly }) => {
      if (target.kind === 'builtin') return 'a node builtin: the renderer runs in a sandboxed page';
      if (target.kind === 'package' && target.name === 'electron') return 'the renderer reaches the host only through window.workbench';
      if (under(target, 'electron', 'cli')) return 'host code';
      if (target.kind !== 'local' || !under(target, 'engine')) return null;
      if (!under(target, 'engine/contract')) return 'only engine/contract/ is shared with the renderer';
      if (typeOnly) return null;
      const source = sourceFor(target.path);
      if (source === null) return 'no such file';
      const unsafe = runtimeImports(source).find((loaded) => !pageSafe(loaded.target));
      return unsafe ? `a value import that bundles "${unsafe.specifier}" (from ${unsafe.file}) into the page; use \`import type\`` : null;
    });
    expect(found).toEqual([]);
  });

  it('the renderer loads something from the contract at runtime (so the rule above is exercised)', () => {
    const loaded = sourceFiles('renderer').flatMap(({ refs }) => refs.filter((ref) => !ref.typeOnly && under(ref.target, 'engine/contract')));
    expect(loaded.length).toBeGreaterThan(0);
  });

  it('engine/contract/channels.ts imports nothing (so it stays zod-free for the preload)', () => {
    const channels = sourceFiles('engine/contract').find((source) => source.file === 'engine/contract/channels.ts');
    expect(channels, 'engine/contract/channels.ts is missing').toBeDefined();
    expect(channels?.refs.map((ref) => `engine/contract/channels.ts imports "${ref.specifier}"`)).toEqual([]);
  });

  it('the preload bundle holds only electron and zod-free contract code', () => {
    // The preload runs sandboxed: whatever it loads at runtime, directly or through local helpers, is all it may use.
    const entry = 'electron/preload.ts';
    expect(existsSync(path.join(repoRoot, entry)), `${entry} is missing`).toBe(true);
    const loaded = runtimeImports(entry);
    expect(loaded.map((ref) => ref.specifier)).toContain('electron');

    const found = loaded
      .filter(({ target }) => !(target.kind === 'package' && target.name === 'electron') && !under(target, 'electron') && !pageSafe(target))
      .map(({ file, specifier }) => `${file} imports "${specifier}" (the preload may load only electron, electron/ helpers and zod-free engine/contract/ files)`);
    expect(found).toEqual([]);
  });
});

/**
 * The engine's rooms, top to bottom: a room may import only rooms below it, and rooms on one line not each
 * other. `root` is engine/'s own files (index.ts and the entries hosts load); contract is the protocol,
 * shared by every room and importing none.
 */
const engineLayers: readonly (readonly string[])[] = [
  ['root'],
  ['host'],
  ['workbench'],
  ['changes', 'mcp', 'conversations'],
  ['approvals'],
  ['rpi'],
  ['agent'],
  ['context'],
  ['settings'],
  ['llm'],
  ['tools'],
  ['checkpoints', 'diff'],
  ['store'],
  ['workspace'],
  ['process', 'secrets'],
  ['files'],
  ['contract'],
];

/** The room of an engine file: its first folder under engine/, or `root` for engine/'s own files. */
function engineRoom(file: string): string | null {
  const parts = file.split('/');
  if (parts[0] !== 'engine') return null;
  return parts.length === 2 ? 'root' : (parts[1] ?? null);
}

const layerOf = (room: string): number => engineLayers.findIndex((line) => line.includes(room));

/** Every local import edge between source files (type-only ones included), resolved to the file it names. */
function localEdges(files: SourceFile[]): { from: string; to: string; specifier: string }[] {
  return files.flatMap(({ file, refs }) =>
    refs.flatMap((ref) => {
      const to = ref.target.kind === 'local' ? sourceFor(ref.target.path) : null;
      return to === null ? [] : [{ from: file, to, specifier: ref.specifier }];
    }),
  );
}

/** The groups of files that import each other, directly or through others (Tarjan's strongly connected components). */
function importCircles(files: SourceFile[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of localEdges(files)) next.set(from, [...(next.get(from) ?? []), to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (file: string) => {
    index.set(file, index.size);
    low.set(file, index.get(file) ?? 0);
    stack.push(file);
    onStack.add(file);
    for (const to of next.get(file) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(file, Math.min(low.get(file) ?? 0, low.get(to) ?? 0));
      } else if (onStack.has(to)) low.set(file, Math.min(low.get(file) ?? 0, index.get(to) ?? 0));
    }
    if (low.get(file) !== index.get(file)) return;
    const circle: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop();
      if (member === undefined) break;
      onStack.delete(member);
      circle.push(member);
    } while (member !== file);
    if (circle.length > 1 || (next.get(file) ?? []).includes(file)) circles.push(circle.sort());
  };
  for (const { file } of files) if (!index.has(file)) visit(file);
  return circles;
}

describe('importCircles and the layer rule (the checks the structure relies on)', () => {
  const fake = (file: string, ...imports: string[]): SourceFile => ({
    file,
    refs: imports.map((specifier) => ({ specifier, typeOnly: true, target: targetOf(file, specifier) })),
  });

  it('finds a circle through type-only imports and through a third file', () => {
    // Real files, so sourceFor resolves them; the edges are the fake ones.
    const a = 'engine/index.ts';
    const b = 'engine/contract/index.ts';
    const c = 'engine/contract/channels.ts';
    expect(importCircles([fake(a, './contract/index.js'), fake(b, './channels.js'), fake(c, '../index.js')])).toEqual([[a, c, b].sort()]);
    expect(importCircles([fake(a, './contract/index.js'), fake(b, './channels.js'), fake(c)])).toEqual([]);
  });

  it('ranks every engine room', () => {
    const rooms = readdirSync(path.join(repoRoot, 'engine'), { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
    expect(rooms.filter((room) => layerOf(room) < 0)).toEqual([]);
    expect(layerOf('workbench')).toBeLessThan(layerOf('rpi'));
    expect(layerOf('tools')).toBeLessThan(layerOf('workspace'));
  });
});

describe('one front door and one direction', () => {
  it('hosts import the engine only through files at its root and the contract', () => {
    const found = violations([...sourceFiles('cli'), ...sourceFiles('electron')], ({ target }) => {
      if (target.kind !== 'local' || !under(target, 'engine')) return null;
      if (under(target, 'engine/contract')) return null;
      const room = engineRoom(target.path);
      return room === 'root' ? null : `hosts reach the engine through engine/index.ts (or an entry file at engine/'s root), not engine/${room}/`;
    });
    expect(found).toEqual([]);
  });

  it('no engine room imports one above it or beside it (host → workbench → rpi → agent → tools → store/workspace)', () => {
    const found = localEdges(sourceFiles('engine')).flatMap(({ from, to, specifier }) => {
      const fromRoom = engineRoom(from);
      const toRoom = engineRoom(to);
      if (fromRoom === null || toRoom === null || fromRoom === toRoom) return [];
      const [fromLayer, toLayer] = [layerOf(fromRoom), layerOf(toRoom)];
      if (fromLayer >= 0 && toLayer > fromLayer) return [];
      return [`${from} imports "${specifier}" (engine/${fromRoom} may not import engine/${toRoom}, which is ${toLayer === fromLayer ? 'beside' : 'above'} it)`];
    });
    expect(found).toEqual([]);
  });

  it('no file imports one that imports it back, directly or through others (type-only imports count)', () => {
    const files = ['engine', 'cli', 'electron', 'renderer'].flatMap((dir) => sourceFiles(dir));
    expect(importCircles(files).map((circle) => circle.join(' ↔ '))).toEqual([]);
  });
});
