import { lexer, type Token, type Tokens } from 'marked';
import type { Colour, StyledLine } from './diffText.js';

type Piece = { text: string; colour?: Colour };
type Line = Piece[];

/** Wider than this, text is wrapped as if the terminal were this wide: long lines are hard to read. */
const maxWidth = 100;
/** Never wrap narrower than this, however deep a list is nested. */
const minWidth = 20;

/**
 * A summary's Markdown as terminal lines: headings and **bold** in bold, *emphasis* in italic, `code` and
 * code blocks in cyan, lists with bullets or numbers (task items with [x]), quotes behind a bar, tables in
 * aligned columns, links as their text followed by the address. Paragraphs are wrapped to `columns`.
 * The lines are pieces of text with a style, written by writeStyled, so the text still goes out through
 * the escape neutraliser: a control character in the model's text is shown, never obeyed.
 */
export function markdownLines(markdown: string, columns = 80): StyledLine[] {
  return blocks(lexer(markdown), Math.max(minWidth, Math.min(columns - 1, maxWidth)), false);
}

/** Blocks one after the other: a blank line between them, except inside a tight list item. */
function blocks(tokens: readonly Token[], width: number, tight: boolean): Line[] {
  const out: Line[] = [];
  for (const token of tokens) {
    const lines = block(token, width);
    if (lines.length === 0) continue;
    if (out.length > 0 && !tight) out.push([]);
    out.push(...lines);
  }
  return out;
}

function block(token: Token, width: number): Line[] {
  switch (token.type) {
    case 'space':
    case 'def':
      return [];
    case 'heading':
      return wrap(inline((token as Tokens.Heading).tokens, 'bold'), width);
    case 'paragraph':
      return wrap(inline((token as Tokens.Paragraph).tokens), width);
    case 'text': {
      const text = token as Tokens.Text;
      return wrap(text.tokens ? inline(text.tokens) : plainLines(decoded(text.text)), width);
    }
    case 'code':
      return (token as Tokens.Code).text.split('\n').map((line) => [{ text: `    ${line}`, colour: 'cyan' }]);
    case 'blockquote':
      return prefixed(blocks((token as Tokens.Blockquote).tokens, width - 2, false), { text: '│ ', colour: 'dim' }, { text: '│ ', colour: 'dim' });
    case 'list':
      return list(token as Tokens.List, width);
    case 'hr':
      return [[{ text: '─'.repeat(Math.min(width, 40)), colour: 'dim' }]];
    case 'table':
      return table(token as Tokens.Table);
    case 'html':
      return plainLines((token as Tokens.HTML).text.replace(/\n$/, ''));
    default:
      return plainLines(token.raw.replace(/\n$/, ''));
  }
}

function list(token: Tokens.List, width: number): Line[] {
  const out: Line[] = [];
  const start = typeof token.start === 'number' ? token.start : 1;
  const markers = token.items.map((_, index) => (token.ordered ? `${start + index}. ` : '• '));
  const markerWidth = Math.max(...markers.map((marker) => marker.length));
  token.items.forEach((item, index) => {
    const box = item.task ? (item.checked ? '[x] ' : '[ ] ') : '';
    const marker = (markers[index] ?? '').padEnd(markerWidth) + box;
    const body = blocks(item.tokens.filter((child) => child.type !== 'checkbox'), width - marker.length, !item.loose);
    if (item.loose && index > 0) out.push([]);
    out.push(...prefixed(body.length > 0 ? body : [[]], { text: marker }, { text: ' '.repeat(marker.length) }));
  });
  return out;
}

/** Columns as wide as their widest cell, the header in bold above a rule; cells keep their alignment. */
function table(token: Tokens.Table): Line[] {
  const cell = (value: Tokens.TableCell) => flatText(inline(value.tokens));
  const header = token.header.map(cell);
  const rows = token.rows.map((row) => row.map(cell));
  const widths = header.map((text, column) => Math.max(text.length, ...rows.map((row) => row[column]?.length ?? 0)));
  const fit = (text: string, column: number) => {
    const room = (widths[column] ?? 0) - text.length;
    const align = token.align[column];
    if (align === 'right') return ' '.repeat(room) + text;
    if (align === 'center') return ' '.repeat(Math.floor(room / 2)) + text + ' '.repeat(Math.ceil(room / 2));
    return text + ' '.repeat(room);
  };
  const row = (cells: readonly string[], colour?: Colour): Line => [{ text: cells.map((text, column) => fit(text, column)).join(' │ ').trimEnd(), ...(colour ? { colour } : {}) }];
  return [row(header, 'bold'), [{ text: widths.map((width) => '─'.repeat(width)).join('─┼─'), colour: 'dim' }], ...rows.map((cells) => row(cells))];
}

/** Inline Markdown as lines of styled pieces (a line break, soft or hard, starts a new line). An outer style wins over an inner one. */
function inline(tokens: readonly Token[] | undefined, style?: Colour): Line[] {
  const lines: Line[] = [[]];
  const add = (text: string, colour: Colour | undefined) => {
    text.split('\n').forEach((part, index) => {
      if (index > 0) lines.push([]);
      if (part !== '') lines.at(-1)?.push(colour ? { text: part, colour } : { text: part });
    });
  };
  const append = (more: Line[]) => {
    more.forEach((line, index) => {
      if (index > 0) lines.push([]);
      lines.at(-1)?.push(...line);
    });
  };
  for (const token of tokens ?? []) {
    switch (token.type) {
      case 'strong':
        append(inline((token as Tokens.Strong).tokens, style ?? 'bold'));
        break;
      case 'em':
        append(inline((token as Tokens.Em).tokens, style ?? 'italic'));
        break;
      case 'del':
        append(inline((token as Tokens.Del).tokens, style ?? 'dim'));
        break;
      case 'codespan':
        add((token as Tokens.Codespan).text, style ?? 'cyan');
        break;
      case 'br':
        lines.push([]);
        break;
      case 'link': {
        const link = token as Tokens.Link;
        append(inline(link.tokens, style));
        if (flatText(inline(link.tokens)) !== link.href) add(` (${link.href})`, 'dim');
        break;
      }
      case 'image': {
        const image = token as Tokens.Image;
        add(`[image: ${decoded(image.text)}]`, style);
        add(` (${image.href})`, 'dim');
        break;
      }
      case 'text': {
        const text = token as Tokens.Text;
        if (text.tokens) append(inline(text.tokens, style));
        else add(decoded(text.text), style);
        break;
      }
      case 'escape':
        add((token as Tokens.Escape).text, style);
        break;
      default:
        add('text' in token && typeof token.text === 'string' ? token.text : token.raw, style);
    }
  }
  return lines;
}

/** Each line cut at spaces to `width` (a word longer than that stays whole); styles are kept across the cuts. */
function wrap(lines: readonly Line[], width: number): Line[] {
  return lines.flatMap((line) => {
    const out: Line[] = [[]];
    let used = 0;
    for (const piece of line) {
      for (const word of piece.text.split(/(?<= )/)) {
        const visible = word.trimEnd().length;
        if (used > 0 && used + visible > width) {
          trimLineEnd(out.at(-1));
          out.push([]);
          used = 0;
        }
        const text = used === 0 ? word.trimStart() : word;
        if (text === '') continue;
        pushPiece(out.at(-1), text, piece.colour);
        used += text.length;
      }
    }
    trimLineEnd(out.at(-1));
    return out;
  });
}

/** Adds text to a line, joined to its last piece when that has the same style. */
function pushPiece(line: Line | undefined, text: string, colour: Colour | undefined): void {
  const last = line?.at(-1);
  if (line && last && last.colour === colour) line[line.length - 1] = { ...last, text: last.text + text };
  else line?.push(colour ? { text, colour } : { text });
}

function trimLineEnd(line: Line | undefined): void {
  const last = line?.at(-1);
  if (!line || !last) return;
  const text = last.text.trimEnd();
  if (text === '') line.pop();
  else line[line.length - 1] = { ...last, text };
}

/** Puts `first` before the first line and `rest` before every other one. */
function prefixed(lines: readonly Line[], first: Piece, rest: Piece): Line[] {
  return lines.map((line, index) => [index === 0 ? first : rest, ...line]);
}

function plainLines(text: string): Line[] {
  return text.split('\n').map((line) => (line === '' ? [] : [{ text: line }]));
}

function flatText(lines: readonly Line[]): string {
  return lines.map((line) => line.map((piece) => piece.text).join('')).join(' ');
}

const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/** The character references Markdown text keeps (`&amp;`, `&#39;`, `&#x2014;`), as the characters they stand for; unknown ones stay as they are. */
function decoded(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]+);/gi, (whole, name: string) => {
    if (name.startsWith('#')) {
      const code = name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return entities[name.toLowerCase()] ?? whole;
  });
}
