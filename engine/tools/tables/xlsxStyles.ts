import type JSZip from 'jszip';
import { columnLetters } from './cellRange.js';
import { firstTarget, themeSummary } from './officeTheme.js';
import { partText, relationshipTargets, relsPartOf } from './officeZip.js';
import { plural } from './tableText.js';
import { scanSheet, workbookParts } from './xlsxStructure.js';
import { at, child, childrenNamed, parseXml, valOf, type XmlElement } from './xmlTree.js';

/** Excel's built-in number formats, which styles.xml refers to by id without writing them out. */
const builtInFormats: Readonly<Record<number, string>> = {
  0: 'General', 1: '0', 2: '0.00', 3: '#,##0', 4: '#,##0.00', 9: '0%', 10: '0.00%', 11: '0.00E+00', 12: '# ?/?', 13: '# ??/??',
  14: 'mm-dd-yy', 15: 'd-mmm-yy', 16: 'd-mmm', 17: 'mmm-yy', 18: 'h:mm AM/PM', 19: 'h:mm:ss AM/PM', 20: 'h:mm', 21: 'h:mm:ss',
  22: 'm/d/yy h:mm', 37: '#,##0 ;(#,##0)', 38: '#,##0 ;[Red](#,##0)', 39: '#,##0.00;(#,##0.00)', 40: '#,##0.00;[Red](#,##0.00)',
  45: 'mm:ss', 46: '[h]:mm:ss', 47: 'mmss.0', 48: '##0.0E+0', 49: '@',
};
const maxListed = 40;

/** A workbook's styles as text: theme fonts, named styles, number formats, fonts, fills, borders, cell formats and, per sheet, widths and which formats its cells use. */
export async function xlsxStylesText(zip: JSZip, requested: string): Promise<string> {
  const { workbookPart, sheets } = await workbookParts(zip, requested);
  const rels = relationshipTargets(await partText(zip, relsPartOf(workbookPart), requested), workbookPart);
  const stylesXml = await partText(zip, firstTarget(rels, 'styles') ?? 'xl/styles.xml', requested);
  const styles = stylesXml === null ? undefined : parseXml(stylesXml);
  const formats = numberFormats(styles);
  const fonts = childrenNamed(at(styles, 'fonts'), 'font').map(fontText);
  const theme = await themeSummary(zip, firstTarget(rels, 'theme'), requested);
  const lines = [`${requested} — workbook styles`];
  if (theme.fonts) lines.push(`Theme fonts: ${theme.fonts}`);
  if (theme.colors) lines.push(`Theme colours: ${theme.colors}`);
  const named = childrenNamed(at(styles, 'cellStyles'), 'cellStyle').map(({ attrs }) => `${attrs['name']}${attrs['builtinId'] !== undefined ? ' (built-in)' : ''}`);
  lines.push(`Named styles: ${named.join(', ') || 'none'}`);
  const custom = [...formats].filter(([id]) => !(id in builtInFormats)).map(([id, code]) => `${id} "${code}"`);
  lines.push(`Custom number formats: ${custom.join('; ') || 'none'}`);
  lines.push(listed('Fonts', fonts));
  lines.push(listed('Fills', childrenNamed(at(styles, 'fills'), 'fill').map(fillText)));
  lines.push(listed('Borders', childrenNamed(at(styles, 'borders'), 'border').map(borderText)));
  const cellFormats = childrenNamed(at(styles, 'cellXfs'), 'xf').map((xf) => cellFormatText(xf, formats, fonts));
  lines.push(listed('Cell formats (cellXfs; a cell names one by index)', cellFormats));
  lines.push('Sheets:');
  for (const sheet of sheets) {
    const scan = await scanSheet(zip, sheet.part, { full: true });
    const widths = scan.columnWidths.map(({ min, max, width }) => `${columnLetters(min)}${max > min ? `–${columnLetters(max)}` : ''} ${round(width)}`);
    const use = [...scan.formatUse].sort((a, b) => b[1] - a[1]).map(([index, cells]) => `#${index} ${cells}`);
    const parts = [
      `column widths ${widths.join(', ') || 'default'}${scan.defaultColumnWidth ? ` (default ${round(scan.defaultColumnWidth)})` : ''}`,
      scan.frozen ? `frozen ${plural(scan.frozen.rows, 'row')}, ${plural(scan.frozen.columns, 'column')}` : 'nothing frozen',
      `${plural(scan.merges.length, 'merged range')}`,
      `${plural(scan.conditionalFormats, 'conditional format')}`,
      `cells by format: ${use.slice(0, 12).join(', ') || 'no cells'}`,
    ];
    lines.push(`  "${sheet.name}"${sheet.hidden ? ' (hidden)' : ''}: ${parts.join('; ')}`);
  }
  return lines.join('\n');
}

function numberFormats(styles: XmlElement | undefined): Map<number, string> {
  const formats = new Map(Object.entries(builtInFormats).map(([id, code]) => [Number(id), code]));
  for (const { attrs } of childrenNamed(at(styles, 'numFmts'), 'numFmt')) formats.set(Number(attrs['numFmtId']), attrs['formatCode'] ?? '');
  return formats;
}

function fontText(font: XmlElement): string {
  const parts = [valOf(font, 'name') ?? '?', valOf(font, 'sz') ?? ''];
  if (child(font, 'b') && valOf(font, 'b') !== '0') parts.push('bold');
  if (child(font, 'i') && valOf(font, 'i') !== '0') parts.push('italic');
  if (child(font, 'u')) parts.push('underline');
  const color = colorText(child(font, 'color'));
  if (color) parts.push(`colour ${color}`);
  return parts.filter(Boolean).join(' ');
}

function fillText(fill: XmlElement): string {
  const pattern = child(fill, 'patternFill');
  if (!pattern) return child(fill, 'gradientFill') ? 'gradient' : 'none';
  const type = pattern.attrs['patternType'] ?? 'none';
  const color = colorText(child(pattern, 'fgColor'));
  return color ? `${type} ${color}` : type;
}

function borderText(border: XmlElement): string {
  const sides = ['left', 'right', 'top', 'bottom'].flatMap((side) => {
    const style = child(border, side)?.attrs['style'];
    return style ? [`${side} ${style}`] : [];
  });
  return sides.join(', ') || 'none';
}

function cellFormatText(xf: XmlElement, formats: Map<number, string>, fonts: readonly string[]): string {
  const { numFmtId = '0', fontId = '0', fillId = '0', borderId = '0' } = xf.attrs;
  const parts = [`font ${fontId} (${fonts[Number(fontId)] ?? '?'})`, `fill ${fillId}`, `border ${borderId}`, `format "${formats.get(Number(numFmtId)) ?? numFmtId}"`];
  const alignment = child(xf, 'alignment')?.attrs;
  if (alignment?.['horizontal']) parts.push(`align ${alignment['horizontal']}`);
  if (alignment?.['wrapText'] === '1') parts.push('wrap');
  return parts.join(', ');
}

function colorText(color: XmlElement | undefined): string | null {
  if (!color) return null;
  const { rgb, theme, indexed } = color.attrs;
  return rgb ?? (theme !== undefined ? `theme ${theme}` : indexed !== undefined ? `indexed ${indexed}` : null);
}

function listed(title: string, items: readonly string[]): string {
  const shown = items.slice(0, maxListed).map((item, index) => `#${index} ${item}`).join('; ');
  return `${title}, ${items.length}: ${shown}${items.length > maxListed ? `; … ${items.length - maxListed} more` : ''}`;
}

function round(width: number): string {
  return String(Math.round(width * 10) / 10);
}
