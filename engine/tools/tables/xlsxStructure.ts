import type JSZip from 'jszip';
import { SaxesParser, type SaxesTagPlain } from 'saxes';
import { ToolError } from '../tool.js';
import { cellName, parseCell, parseRange, type CellRange } from './cellRange.js';
import { partText, relationshipTargets, relsPartOf, streamPart } from './officeZip.js';
import { at, childrenNamed, localAttributes, localName, parseXml } from './xmlTree.js';

export interface WorkbookSheet {
  name: string;
  /** The sheet's XML part in the archive, e.g. "xl/worksheets/sheet2.xml". */
  part: string;
  hidden: boolean;
}

export interface WorkbookParts {
  workbookPart: string;
  /** The shared strings and styles parts, when the workbook has them. */
  sharedStringsPart: string | undefined;
  stylesPart: string | undefined;
  sheets: WorkbookSheet[];
  /** Dates counted from 1904 (old Mac workbooks) instead of 1900. */
  date1904: boolean;
}

/** The sheets of a workbook, in tab order, from its workbook part and relationships. */
export async function workbookParts(zip: JSZip, requested: string): Promise<WorkbookParts> {
  const packageRels = relationshipTargets(await partText(zip, '_rels/.rels', requested), '');
  const workbookPart = [...packageRels.values()].find(({ type }) => type === 'officeDocument')?.target ?? 'xl/workbook.xml';
  const workbookXml = await partText(zip, workbookPart, requested);
  if (workbookXml === null) throw new ToolError(`${requested} is not an Excel workbook (it has no ${workbookPart}).`);
  const workbook = parseXml(workbookXml);
  const rels = relationshipTargets(await partText(zip, relsPartOf(workbookPart), requested), workbookPart);
  const sheets = childrenNamed(at(workbook, 'sheets'), 'sheet').flatMap(({ attrs }) => {
    const part = rels.get(attrs['id'] ?? '');
    return part && part.type === 'worksheet' ? [{ name: attrs['name'] ?? '', part: part.target, hidden: (attrs['state'] ?? 'visible') !== 'visible' }] : [];
  });
  const date1904 = ['1', 'true'].includes(at(workbook, 'workbookPr')?.attrs['date1904'] ?? '');
  const partOf = (type: string) => [...rels.values()].find((rel) => rel.type === type)?.target;
  return { workbookPart, sharedStringsPart: partOf('sharedStrings'), stylesPart: partOf('styles'), sheets, date1904 };
}

export interface SheetScan {
  /** The used range the sheet declares (Excel keeps it up to date; other writers may not). */
  declared: CellRange | null;
  /** The range of cells that hold a value or a formula (full scans only). */
  used: CellRange | null;
  /** Rows that hold at least one value (full scans only). */
  valueRows: number;
  merges: CellRange[];
  formulaCount: number;
  formulaExamples: { cell: string; formula: string }[];
  frozen: { rows: number; columns: number } | null;
  columnWidths: { min: number; max: number; width: number }[];
  defaultColumnWidth: number | null;
  /** How many cells use each cell format (the `s` index into cellXfs; full scans only). */
  formatUse: Map<number, number>;
  conditionalFormats: number;
}

/**
 * Reads a sheet's XML as a stream. A head scan stops where the cells begin (declared range, frozen panes,
 * column widths); a full scan reads on for the cells with values, formulas and merged ranges.
 */
export async function scanSheet(zip: JSZip, part: string, { full }: { full: boolean }): Promise<SheetScan> {
  const scan: SheetScan = { declared: null, used: null, valueRows: 0, merges: [], formulaCount: 0, formulaExamples: [], frozen: null, columnWidths: [], defaultColumnWidth: null, formatUse: new Map(), conditionalFormats: 0 };
  const cells = new CellTracker(scan);
  let done = false;
  const parser = new SaxesParser();
  parser.on('opentag', (tag) => {
    const name = localName(tag.name);
    const attrs = localAttributes((tag as SaxesTagPlain).attributes);
    if (name === 'sheetData' && !full) done = true;
    else if (name === 'dimension') scan.declared = parseRange(attrs['ref'] ?? '');
    else if (name === 'pane' && attrs['state']?.startsWith('frozen')) scan.frozen = { rows: Number(attrs['ySplit'] ?? 0), columns: Number(attrs['xSplit'] ?? 0) };
    else if (name === 'col') scan.columnWidths.push({ min: Number(attrs['min']), max: Number(attrs['max']), width: Number(attrs['width']) });
    else if (name === 'sheetFormatPr' && attrs['defaultColWidth']) scan.defaultColumnWidth = Number(attrs['defaultColWidth']);
    else if (name === 'conditionalFormatting') scan.conditionalFormats += 1;
    else if (name === 'mergeCell') {
      const range = parseRange(attrs['ref'] ?? '');
      if (range) scan.merges.push(range);
    } else cells.open(name, attrs);
  });
  parser.on('text', (text) => cells.text(text));
  parser.on('closetag', (tag) => cells.close(localName(tag.name)));
  const decoder = new TextDecoder('utf-8');
  await streamPart(zip, part, (chunk) => {
    parser.write(decoder.decode(chunk, { stream: true }));
    return done ? 'stop' : 'more';
  });
  return scan;
}

/** Follows rows and cells through a full scan: which hold values, and the formulas. */
class CellTracker {
  private row = 0;
  private column = 0;
  private rowHasValue = false;
  private cellHasValue = false;
  private formula: string | null = null;
  private inValue = false;

  constructor(private readonly scan: SheetScan) {}

  open(name: string, attrs: Record<string, string>): void {
    if (name === 'row') {
      this.row = attrs['r'] ? Number(attrs['r']) : this.row + 1;
      this.column = 0;
      this.rowHasValue = false;
    } else if (name === 'c') {
      const ref = attrs['r'] ? parseCell(attrs['r']) : null;
      this.column = ref ? ref.column : this.column + 1;
      this.cellHasValue = false;
      const format = Number(attrs['s'] ?? 0);
      this.scan.formatUse.set(format, (this.scan.formatUse.get(format) ?? 0) + 1);
    } else if (name === 'f') {
      this.formula = '';
      this.cellHasValue = true;
    } else if (name === 'v' || name === 't') this.inValue = true;
  }

  text(text: string): void {
    if (this.formula !== null) this.formula += text;
    else if (this.inValue && text.trim() !== '') this.cellHasValue = true;
  }

  close(name: string): void {
    if (name === 'f' && this.formula !== null) {
      this.scan.formulaCount += 1;
      if (this.scan.formulaExamples.length < 5) this.scan.formulaExamples.push({ cell: cellName(this.row, this.column), formula: this.formula || '(shared formula)' });
      this.formula = null;
    } else if (name === 'v' || name === 't') this.inValue = false;
    else if (name === 'c' && this.cellHasValue) {
      this.rowHasValue = true;
      this.widenUsed();
    } else if (name === 'row' && this.rowHasValue) this.scan.valueRows += 1;
  }

  private widenUsed(): void {
    const used = this.scan.used;
    if (!used) {
      this.scan.used = { firstRow: this.row, lastRow: this.row, firstColumn: this.column, lastColumn: this.column };
      return;
    }
    used.firstRow = Math.min(used.firstRow, this.row);
    used.lastRow = Math.max(used.lastRow, this.row);
    used.firstColumn = Math.min(used.firstColumn, this.column);
    used.lastColumn = Math.max(used.lastColumn, this.column);
  }
}
