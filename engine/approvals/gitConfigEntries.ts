/** One `name = value` of a git config file, with names lower-cased as git compares them. */
export interface GitConfigEntry {
  /** Section name, lower-cased (`core`, `include`, `includeif`). */
  section: string;
  /** Subsection as written (`[remote "origin"]` → `origin`); null without one. */
  subsection: string | null;
  /** Variable name, lower-cased (`hookspath`). */
  key: string;
  /** The value with quotes, escapes and line continuations applied; null for a bare `name` (true). */
  value: string | null;
}

/**
 * Reads git config text as git-config(1) "Syntax" describes it: `#`/`;` comments, `[section]`,
 * `[section "subsection"]` and the old `[section.subsection]`, case-insensitive section and variable
 * names, a variable on the header's line, double quotes, `\"` `\\` `\n` `\t` `\b` escapes and `\` at the
 * end of a line continuing the value. Malformed lines are skipped rather than failing the whole file.
 *
 * Hand-written because the npm parsers of `.git/config` (parse-git-config, gitconfiglocal, git-config,
 * dotgitconfig) are INI parsers: they miss continuations, escapes, comments after a value, variables on
 * a header's line and case-insensitive names, each of which lets a hostile `.git/config` hide a value
 * from them that git itself reads. Its only use here is to widen what asks, never to allow anything.
 */
export function gitConfigEntries(text: string): GitConfigEntry[] {
  const entries: GitConfigEntry[] = [];
  const lines = text.split(/\r?\n/);
  let section: string | null = null;
  let subsection: string | null = null;
  for (let index = 0; index < lines.length; index += 1) {
    let line = (lines[index] ?? '').replace(/^\s+/, '');
    if (line.startsWith('[')) {
      const header = parseHeader(line);
      if (header === null) {
        section = null;
        continue;
      }
      ({ section, subsection } = header);
      line = header.rest.replace(/^\s+/, '');
    }
    if (section === null || line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const name = /^([A-Za-z][A-Za-z0-9-]*)\s*(=|$|[#;])/.exec(line);
    if (!name?.[1]) continue;
    if (name[2] !== '=') {
      entries.push({ section, subsection, key: name[1].toLowerCase(), value: null });
      continue;
    }
    let rest = line.slice(name[0].length);
    let value = '';
    for (;;) {
      const read = readValue(rest);
      value += read.value;
      if (!read.continues || index + 1 >= lines.length) break;
      index += 1;
      rest = lines[index] ?? '';
    }
    entries.push({ section, subsection, key: name[1].toLowerCase(), value });
  }
  return entries;
}

function parseHeader(line: string): { section: string; subsection: string | null; rest: string } | null {
  const quoted = /^\[\s*([A-Za-z0-9.-]+)\s+"((?:[^"\\\n]|\\.)*)"\s*\]/.exec(line);
  if (quoted?.[1] !== undefined && quoted[2] !== undefined) {
    return { section: quoted[1].toLowerCase(), subsection: quoted[2].replace(/\\(.)/g, '$1'), rest: line.slice(quoted[0].length) };
  }
  const plain = /^\[\s*([A-Za-z0-9-]+)(?:\.([A-Za-z0-9.-]*))?\s*\]/.exec(line);
  if (plain?.[1] === undefined) return null;
  return { section: plain[1].toLowerCase(), subsection: plain[2] === undefined ? null : plain[2].toLowerCase(), rest: line.slice(plain[0].length) };
}

const escapes: Readonly<Record<string, string>> = { '"': '"', '\\': '\\', n: '\n', t: '\t', b: '\b' };

/** One physical line of a value: git trims unquoted whitespace at both ends and keeps it inside. */
function readValue(text: string): { value: string; continues: boolean } {
  let value = '';
  let pendingSpace = '';
  let quoted = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index] ?? '';
    if (char === '\\') {
      const next = text[index + 1];
      if (next === undefined) return { value: value + pendingSpace, continues: true };
      value += pendingSpace + (escapes[next] ?? next);
      pendingSpace = '';
      index += 1;
    } else if (char === '"') {
      value += pendingSpace;
      pendingSpace = '';
      quoted = !quoted;
    } else if (!quoted && (char === '#' || char === ';')) {
      break;
    } else if (!quoted && /\s/.test(char)) {
      if (value !== '') pendingSpace += char;
    } else {
      value += pendingSpace + char;
      pendingSpace = '';
    }
  }
  return { value, continues: false };
}
