import type JSZip from 'jszip';
import { SaxesParser } from 'saxes';
import { partChunks, partText } from './officeZip.js';
import { at, childrenNamed, localName, parseXml } from './xmlTree.js';

/** Built-in number formats that show dates or times (ids 14–22, 27–36, 45–47, 50–58 in Excel's table). */
const builtInDateFormats = new Set([14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 45, 46, 47, 50, 51, 52, 53, 54, 55, 56, 57, 58]);

/** Whether a number format shows a date or time ("dd.mm.yyyy", "m/d/yy h:mm"); text in quotes, [colours] and escapes aside. */
export function isDateFormat(format: string | undefined): boolean {
  if (!format) return false;
  const bare = format.replace(/"[^"]*"|\[[^\]]*\]|\\./g, '');
  return /[dmyhs]/i.test(bare) && !/^[#0.,%\sE+-]*$/i.test(bare);
}

/** The indexes of the cell formats (cellXfs) whose number format is a date or time: a number in such a cell is a date. */
export async function dateCellFormats(zip: JSZip, stylesPart: string | undefined, requested: string): Promise<Set<number>> {
  const xml = stylesPart ? await partText(zip, stylesPart, requested) : null;
  if (xml === null) return new Set();
  const styles = parseXml(xml);
  const custom = new Map(childrenNamed(at(styles, 'numFmts'), 'numFmt').map(({ attrs }) => [Number(attrs['numFmtId']), attrs['formatCode'] ?? '']));
  const dates = new Set<number>();
  childrenNamed(at(styles, 'cellXfs'), 'xf').forEach(({ attrs }, index) => {
    const id = Number(attrs['numFmtId'] ?? 0);
    if (custom.has(id) ? isDateFormat(custom.get(id)) : builtInDateFormats.has(id)) dates.add(index);
  });
  return dates;
}

/** The workbook's shared strings, in order, streamed: each <si> is its <t> runs joined (phonetic runs left out). */
export async function sharedStrings(zip: JSZip, part: string | undefined): Promise<string[]> {
  const strings: string[] = [];
  if (!part) return strings;
  let current: string | null = null;
  let inText = false;
  let phonetic = 0;
  const parser = new SaxesParser();
  parser.on('opentag', (tag) => {
    const name = localName(tag.name);
    if (name === 'si') current = '';
    else if (name === 'rPh') phonetic += 1;
    else if (name === 't' && phonetic === 0 && !tag.isSelfClosing) inText = true;
  });
  parser.on('text', (text) => {
    if (inText && current !== null) current += text;
  });
  parser.on('closetag', (tag) => {
    const name = localName(tag.name);
    if (name === 't') inText = false;
    else if (name === 'rPh') phonetic -= 1;
    else if (name === 'si') {
      strings.push(current ?? '');
      current = null;
    }
  });
  const decoder = new TextDecoder('utf-8');
  for await (const chunk of partChunks(zip, part)) parser.write(decoder.decode(chunk, { stream: true }));
  return strings;
}

/** Excel's day number as a UTC date, in the 1900 system or (old Mac workbooks) the 1904 one. */
export function excelSerialToDate(serial: number, date1904 = false): Date {
  return new Date(Math.round((serial - (date1904 ? 24107 : 25569)) * 86_400_000));
}
