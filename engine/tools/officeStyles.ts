import type JSZip from 'jszip';
import { z } from 'zod';
import { docxStylesText } from './tables/docxStyles.js';
import { openOfficeZip } from './tables/officeZip.js';
import { pptxStylesText } from './tables/pptxStyles.js';
import { checkedFile } from './tables/tableFiles.js';
import { xlsxStylesText } from './tables/xlsxStyles.js';
import { ToolError, defineTool } from './tool.js';

interface StylesToolSpec {
  name: string;
  what: string;
  extensions: RegExp;
  example: string;
  gives: string;
  summarise: (zip: JSZip, requested: string) => Promise<string>;
}

/** A *_get_styles tool: checks the file like every read, opens its ZIP container, and reports the styles. */
function stylesTool({ name, what, extensions, example, gives, summarise }: StylesToolSpec) {
  return defineTool({
    name,
    description: `The styles of ${what}: ${gives}. Read it before writing or changing such a file so the result matches the existing look.`,
    parameters: z.object({ path: z.string().describe(`File path relative to the project folder, e.g. "${example}".`) }),
    mutates: false,
    async run({ path }, { workspace }) {
      if (!extensions.test(path)) throw new ToolError(`${name} reads ${what}; "${path}" does not have that extension.`);
      const file = await checkedFile(workspace, path);
      return { text: await summarise(await openOfficeZip(workspace, file), path) };
    },
  });
}

export const xlsxGetStyles = stylesTool({
  name: 'xlsx_get_styles',
  what: 'an Excel workbook (.xlsx, .xlsm)',
  extensions: /\.(xlsx|xlsm)$/i,
  example: 'reports/budget.xlsx',
  gives: 'theme fonts and colours, named styles, number formats, fonts, fills, borders, the cell formats, and per sheet the column widths, frozen panes, merged ranges and which cell formats its cells use',
  summarise: xlsxStylesText,
});

export const docxGetStyles = stylesTool({
  name: 'docx_get_styles',
  what: 'a Word document (.docx, .docm, .dotx)',
  extensions: /\.(docx|docm|dotx)$/i,
  example: 'letters/template.docx',
  gives: 'default font and spacing, theme fonts, page size and margins, and each style that is used, custom or default (font, size, weight, colour, spacing, alignment, what it is based on, how often paragraphs and runs name it)',
  summarise: docxStylesText,
});

export const pptxGetStyles = stylesTool({
  name: 'pptx_get_styles',
  what: 'a PowerPoint presentation (.pptx, .potx)',
  extensions: /\.(pptx|potx)$/i,
  example: 'slides/deck.pptx',
  gives: 'slide size, each slide master with its theme fonts and colours, title and body text styles and its layouts (with their placeholders), and the layout and title of every slide',
  summarise: pptxStylesText,
});
