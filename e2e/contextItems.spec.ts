import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { openBench, say, type Bench } from './support/workbenchPage.js';
import { runTeardown } from './support/teardown.js';

let bench: Bench;
const autoApprovals = { files: 'auto', commands: 'auto', reviewPlan: false } as const;

test.afterEach(runTeardown);

// Typing @ lists the folder's files and folders; the keyboard attaches them as chips (one removed again);
// the sent message shows what it carried, and the model receives the attached file's content in every phase.
test('@ completion attaches files as chips; the message shows them and every phase gets their content', async ({ page }) => {
  bench = await openBench(page, autoApprovals);
  const { model, folder } = bench;
  await mkdir(path.join(folder, 'src', 'parsers'), { recursive: true });
  await writeFile(path.join(folder, 'src', 'parsers', 'bankParser.ts'), 'export const delimiter = ";"; // PARSER-CONTENT\n');
  await writeFile(path.join(folder, 'src', 'parsers', 'cardParser.ts'), 'export {};\n');

  const composer = page.getByTestId('composer');
  await composer.click();
  await composer.pressSequentially('Use the separator from @bankpar');
  const options = page.getByTestId('path-option');
  await expect(options.first()).toHaveText('filesrc/parsers/bankParser.ts');
  await page.screenshot({ path: 'e2e/screenshots/context-1-at-completion.png' });
  await composer.press('Enter');
  await expect(page.getByTestId('path-completion')).toHaveCount(0);
  await expect(composer).toHaveValue('Use the separator from @src/parsers/bankParser.ts ');

  await composer.pressSequentially('and @data');
  await expect(options.first()).toHaveText('folderdata/');
  await composer.press('Tab');
  await composer.pressSequentially('@READ');
  await expect(options.first()).toHaveText('fileREADME.md');
  await composer.press('ArrowDown');
  await composer.press('ArrowUp');
  await composer.press('Enter');
  const chips = page.getByTestId('composer-form').getByTestId('context-chip');
  await expect(chips).toHaveText(['Filesrc/parsers/bankParser.ts×', 'Folderdata/×', 'FileREADME.md×']);
  // Removed with the keyboard: its remove button is reachable and labelled.
  await page.getByRole('button', { name: 'Remove README.md' }).focus();
  await page.screenshot({ path: 'e2e/screenshots/context-2-chips.png' });
  await page.keyboard.press('Enter');
  await expect(chips).toHaveText(['Filesrc/parsers/bankParser.ts×', 'Folderdata/×']);

  await composer.pressSequentially('in the new parser');
  await composer.press('Enter');
  const research = await model.next();
  expect(research.phase).toBe('research');
  const researchText = JSON.stringify(research.body.messages);
  expect(researchText).toContain('PARSER-CONTENT');
  expect(researchText).toContain('bank.csv');
  research.answer(say('The bank parser uses ";".'));
  const planning = await model.next();
  expect(JSON.stringify(planning.body.messages)).toContain('PARSER-CONTENT');
  planning.answer(say('# Execution Plan\n\n## Items\n- [ ] 1. Card parser — write src/parsers/cardParser.ts\n'));
  const implement = await model.next();
  expect(implement.phase).toBe('implement');
  expect(JSON.stringify(implement.body.messages)).toContain('PARSER-CONTENT');
  implement.answer({ toolCalls: [{ name: 'write_file', arguments: { path: 'src/parsers/cardParser.ts', content: 'export const delimiter = ";";\n' } }] });
  await model.answer('implement', say('Wrote src/parsers/cardParser.ts.'));
  await model.answer('summary', say('The card parser now uses ";".'));

  await expect(page.getByTestId('status-line')).toHaveText('Finished');
  const request = page.locator('[data-testid="message"][data-role="user"]').last();
  await expect(request).toContainText('Use the separator from @src/parsers/bankParser.ts and @data/ @README.md in the new parser');
  await expect(request.getByTestId('context-chip')).toHaveText(['Filesrc/parsers/bankParser.ts', 'Folderdata/']);
  await expect(page.getByTestId('attached-items')).toHaveText('Attached: src/parsers/bankParser.ts, data/');
  await expect(page.getByTestId('composer-form').getByTestId('context-chip')).toHaveCount(0);
  await page.screenshot({ path: 'e2e/screenshots/context-3-sent-message.png' });

  // The browser cannot tell a dropped file's path: it says how to attach one instead.
  const dropped = await page.evaluateHandle(() => {
    const transfer = new DataTransfer();
    transfer.items.add(new File(['x'], 'notes.txt', { type: 'text/plain' }));
    return transfer;
  });
  await page.getByTestId('composer-form').dispatchEvent('drop', { dataTransfer: dropped });
  await expect(page.getByTestId('composer-notice')).toHaveText('Dropping files works in the desktop app. Here, type @ and a name to attach a file or folder of this project.');
  // …and the window's own drop handling (opening a folder) leaves a drop on the request box alone.
  await expect(page.getByTestId('drop-note')).toHaveCount(0);
});
