import type JSZip from 'jszip';
import { SaxesParser, type SaxesTagPlain } from 'saxes';
import { ToolError } from '../tool.js';
import { firstTarget, themeSummary } from './officeTheme.js';
import { partText, relationshipTargets, relsPartOf, streamPart } from './officeZip.js';
import { plural } from './tableText.js';
import { at, child, childrenNamed, localAttributes, localName, parseXml, valOf, type XmlElement } from './xmlTree.js';

const maxListed = 60;

interface DocumentUse {
  paragraphs: number;
  tables: number;
  /** How often each style id is named by a paragraph, run or table. */
  styles: Map<string, number>;
  /** The last section's page settings. */
  page: Record<string, string>;
  margins: Record<string, string>;
}

/** A document's styles as text: defaults, theme fonts, page setup, and every style in use or defined by the author. */
export async function docxStylesText(zip: JSZip, requested: string): Promise<string> {
  const packageRels = relationshipTargets(await partText(zip, '_rels/.rels', requested), '');
  const documentPart = firstTarget(packageRels, 'officeDocument') ?? 'word/document.xml';
  const rels = relationshipTargets(await partText(zip, relsPartOf(documentPart), requested), documentPart);
  const stylesXml = await partText(zip, firstTarget(rels, 'styles') ?? 'word/styles.xml', requested);
  if (stylesXml === null && !zip.file(documentPart)) throw new ToolError(`${requested} is not a Word document (it has no ${documentPart}).`);
  const styles = stylesXml === null ? undefined : parseXml(stylesXml);
  const use = await documentUse(zip, documentPart);
  const theme = await themeSummary(zip, firstTarget(rels, 'theme'), requested);
  const lines = [`${requested} — document styles (${plural(use.paragraphs, 'paragraph')}, ${plural(use.tables, 'table')})`];
  if (theme.fonts) lines.push(`Theme fonts: ${theme.fonts}`);
  const defaults = at(styles, 'docDefaults');
  lines.push(`Defaults: ${runText(at(defaults, 'rPrDefault', 'rPr')) || 'none'}${paragraphText(at(defaults, 'pPrDefault', 'pPr')) ? `; ${paragraphText(at(defaults, 'pPrDefault', 'pPr'))}` : ''}`);
  if (use.page['w']) lines.push(`Page: ${pageText(use)}`);
  const all = childrenNamed(styles, 'style');
  const shown = all.filter((style) => use.styles.has(style.attrs['styleId'] ?? '') || style.attrs['customStyle'] === '1' || style.attrs['default'] === '1');
  lines.push(`Styles in use, custom or default (${shown.length} of ${all.length} defined):`);
  for (const style of shown.slice(0, maxListed)) lines.push(`  ${styleText(style, use.styles.get(style.attrs['styleId'] ?? '') ?? 0)}`);
  if (shown.length > maxListed) lines.push(`  … ${shown.length - maxListed} more`);
  const numbering = firstTarget(rels, 'numbering');
  if (numbering) {
    const xml = await partText(zip, numbering, requested);
    if (xml !== null) lines.push(`List definitions: ${childrenNamed(parseXml(xml), 'abstractNum').length}`);
  }
  return lines.join('\n');
}

function styleText(style: XmlElement, uses: number): string {
  const { type = '?', styleId = '?' } = style.attrs;
  const name = valOf(style, 'name') ?? styleId;
  const parts = [`${type} "${name}"${name !== styleId ? ` (id ${styleId})` : ''}`];
  if (style.attrs['default'] === '1') parts.push('default');
  if (style.attrs['customStyle'] === '1') parts.push('custom');
  const basedOn = valOf(style, 'basedOn');
  if (basedOn) parts.push(`based on ${basedOn}`);
  const run = runText(child(style, 'rPr'));
  if (run) parts.push(run);
  const paragraph = paragraphText(child(style, 'pPr'));
  if (paragraph) parts.push(paragraph);
  parts.push(uses > 0 ? `used ${uses}×` : 'not used');
  return parts.join('; ');
}

/** Font, size, weight, colour of run properties: "Calibri 11pt bold colour 2F5496". */
function runText(properties: XmlElement | undefined): string {
  if (!properties) return '';
  const fonts = child(properties, 'rFonts')?.attrs;
  const parts = [fonts?.['ascii'] ?? (fonts?.['asciiTheme'] ? `theme ${fonts['asciiTheme']}` : '')];
  const size = valOf(properties, 'sz');
  if (size) parts.push(`${Number(size) / 2}pt`);
  for (const flag of ['b', 'i', 'caps', 'smallCaps'] as const) {
    if (child(properties, flag) && !['0', 'false'].includes(valOf(properties, flag) ?? '')) parts.push({ b: 'bold', i: 'italic', caps: 'caps', smallCaps: 'small caps' }[flag]);
  }
  const color = valOf(properties, 'color');
  if (color && color !== 'auto') parts.push(`colour ${color}`);
  return parts.filter(Boolean).join(' ');
}

/** Spacing, alignment, indent and outline level of paragraph properties. */
function paragraphText(properties: XmlElement | undefined): string {
  if (!properties) return '';
  const parts: string[] = [];
  const spacing = child(properties, 'spacing')?.attrs;
  if (spacing?.['before']) parts.push(`space before ${points(spacing['before'])}`);
  if (spacing?.['after']) parts.push(`space after ${points(spacing['after'])}`);
  if (spacing?.['line']) parts.push(spacing['lineRule'] === 'auto' || !spacing['lineRule'] ? `line ${Math.round((Number(spacing['line']) / 240) * 100) / 100}×` : `line ${points(spacing['line'])}`);
  const align = valOf(properties, 'jc');
  if (align) parts.push(`align ${align}`);
  const indent = child(properties, 'ind')?.attrs;
  if (indent?.['left'] ?? indent?.['start']) parts.push(`indent ${points(indent['left'] ?? indent['start'] ?? '0')}`);
  const outline = valOf(properties, 'outlineLvl');
  if (outline) parts.push(`outline level ${Number(outline) + 1}`);
  return parts.join(', ');
}

/** Twentieths of a point → "12pt". */
function points(twips: string): string {
  return `${Math.round((Number(twips) / 20) * 10) / 10}pt`;
}

function pageText({ page, margins }: DocumentUse): string {
  const cm = (twips: string | undefined) => `${Math.round((Number(twips ?? 0) / 1440) * 2.54 * 10) / 10} cm`;
  const orientation = page['orient'] ?? (Number(page['w']) > Number(page['h']) ? 'landscape' : 'portrait');
  return `${cm(page['w'])} × ${cm(page['h'])} ${orientation}; margins top ${cm(margins['top'])}, bottom ${cm(margins['bottom'])}, left ${cm(margins['left'] ?? margins['start'])}, right ${cm(margins['right'] ?? margins['end'])}`;
}

/** Streams the document body once: paragraphs, tables, which styles are named, and the page setup. */
async function documentUse(zip: JSZip, part: string): Promise<DocumentUse> {
  const use: DocumentUse = { paragraphs: 0, tables: 0, styles: new Map(), page: {}, margins: {} };
  const parser = new SaxesParser();
  parser.on('opentag', (tag) => {
    const name = localName(tag.name);
    const attrs = localAttributes((tag as SaxesTagPlain).attributes);
    if (name === 'p') use.paragraphs += 1;
    else if (name === 'tbl') use.tables += 1;
    else if ((name === 'pStyle' || name === 'rStyle' || name === 'tblStyle') && attrs['val']) use.styles.set(attrs['val'], (use.styles.get(attrs['val']) ?? 0) + 1);
    else if (name === 'pgSz') use.page = attrs;
    else if (name === 'pgMar') use.margins = attrs;
  });
  const decoder = new TextDecoder('utf-8');
  await streamPart(zip, part, (chunk) => {
    parser.write(decoder.decode(chunk, { stream: true }));
    return 'more';
  });
  return use;
}
