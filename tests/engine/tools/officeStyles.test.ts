import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { docxGetStyles, pptxGetStyles, xlsxGetStyles } from '../../../engine/tools/officeStyles.js';
import { docxFixture, pptxFixture } from '../../support/officeFixtures.js';
import { runTool, toolContextFor } from '../../support/toolContext.js';
import { useTempFolders } from '../../support/tempFolder.js';

describe('the *_get_styles tools', () => {
  const tempFolder = useTempFolders('rpi-office-styles-');

  it('reports a workbook’s fonts, fills, borders, number formats, named styles, widths and which cells use which format', async () => {
    const root = await tempFolder();
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Budget');
    sheet.columns = [{ width: 24 }, { width: 12 }];
    sheet.addRow(['Item', 'Amount']).font = { bold: true, name: 'Arial', size: 12 };
    const row = sheet.addRow(['Rent', -850]);
    row.getCell(2).numFmt = '#,##0.00 "€"';
    row.getCell(2).fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFFFFF00' } };
    row.getCell(2).border = { bottom: { style: 'thin' } };
    sheet.mergeCells('C1:D1');
    sheet.views = [{ state: 'frozen', ySplit: 1 }];
    await workbook.xlsx.writeFile(path.join(root, 'budget.xlsx'));

    const styles = await runTool(xlsxGetStyles, { path: 'budget.xlsx' }, await toolContextFor(root));

    expect(styles).toContain('budget.xlsx — workbook styles');
    expect(styles).toContain('Named styles: Normal (built-in)');
    expect(styles).toMatch(/Custom number formats: \d+ "#,##0.00 "€""/);
    expect(styles).toContain('Arial 12 bold');
    expect(styles).toContain('solid FFFFFF00');
    expect(styles).toContain('bottom thin');
    expect(styles).toMatch(/format "#,##0.00 "€""/);
    expect(styles).toMatch(/"Budget": column widths A 24, B 12; frozen 1 row, 0 columns; 1 merged range; 0 conditional formats; cells by format: #\d+ \d+/);
  });

  it('reports a document’s defaults, page setup and the styles in use, custom or default', async () => {
    const root = await tempFolder();
    await writeFile(path.join(root, 'letter.docx'), await docxFixture());
    const styles = await runTool(docxGetStyles, { path: 'letter.docx' }, await toolContextFor(root));
    expect(styles.split('\n')).toEqual([
      'letter.docx — document styles (3 paragraphs, 0 tables)',
      'Theme fonts: headings Calibri Light, body Calibri',
      'Defaults: Calibri 11pt; space after 8pt, line 1.08×',
      'Page: 21 cm × 29.7 cm portrait; margins top 2.5 cm, bottom 2 cm, left 2.5 cm, right 2.5 cm',
      'Styles in use, custom or default (3 of 4 defined):',
      '  paragraph "Normal"; default; not used',
      '  paragraph "heading 1" (id Heading1); based on Normal; Georgia 16pt bold colour 2F5496; space before 12pt, outline level 1; used 2×',
      '  character "Amount"; custom; italic; used 1×',
    ]);
  });

  it('reports a presentation’s size, master, theme, text styles, layouts and each slide’s layout and title', async () => {
    const root = await tempFolder();
    await writeFile(path.join(root, 'deck.pptx'), await pptxFixture());
    const styles = await runTool(pptxGetStyles, { path: 'deck.pptx' }, await toolContextFor(root));
    expect(styles.split('\n')).toEqual([
      'deck.pptx — presentation styles',
      'Slide size: 33.9 cm × 19.1 cm',
      'Master "Brand" — theme fonts: headings Calibri Light, body Calibri',
      '  theme colours: dk1 000000, accent1 4472C4',
      '  title text: level 1 Georgia 44pt bold colour tx1',
      '  body text: level 1 28pt; level 2 24pt',
      '  layouts, 2: "Title Slide" (title): 2 placeholders ctrTitle, subTitle; "Title and Content" (obj): 2 placeholders title, body',
      'Slides, 2:',
      '  1. layout "Title Slide" — "Quarterly results"',
      '  2. layout "Title and Content" — "Spending by category"',
    ]);
  });

  it('refuses a file of the wrong kind, one outside the folder, and one that is not an Office file', async () => {
    const root = await tempFolder();
    await writeFile(path.join(root, 'fake.docx'), 'not a zip');
    const context = await toolContextFor(root);
    await expect(runTool(docxGetStyles, { path: 'deck.pptx' }, context)).rejects.toThrow('docx_get_styles reads a Word document (.docx, .docm, .dotx); "deck.pptx" does not have that extension.');
    await expect(runTool(xlsxGetStyles, { path: '../x.xlsx' }, context)).rejects.toThrow(/leads outside the project folder/);
    await expect(runTool(docxGetStyles, { path: 'fake.docx' }, context)).rejects.toThrow(/fake.docx is not a valid Office file/);
  });
});
