import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tableDescribe } from '../../../../engine/tools/tableDescribe.js';
import { tableQuery } from '../../../../engine/tools/tableQuery.js';
import { runTool, toolContextFor } from '../../../support/toolContext.js';
import { useTempFolders } from '../../../support/tempFolder.js';

describe('reading CSV files the way they are written', () => {
  const tempFolder = useTempFolders('rpi-tables-csv-');

  async function folderWith(name: string, content: string | Buffer) {
    const root = await tempFolder();
    await writeFile(path.join(root, name), content);
    const context = await toolContextFor(root);
    return {
      describe: () => runTool(tableDescribe, { path: name }, context),
      query: (sql: string) => runTool(tableQuery, { sql }, context),
    };
  }

  it('reads a German bank export: preamble lines, semicolons, decimal commas with thousands dots, dd.mm.yyyy dates, Latin-1', async () => {
    const lines = ['Kontoauszug Girokonto', 'Konto;DE12 3456', '', 'Buchungstag;Verwendungszweck;Betrag', '01.03.2024;Miete März;-850,00', '02.03.2024;Gehalt;2.500,00', '05.03.2024;Bäckerei;-4,35'];
    const { describe: describeIt, query } = await folderWith('umsaetze.csv', Buffer.from(`${lines.join('\r\n')}\r\n`, 'latin1'));

    const description = await describeIt();

    expect(description).toContain('umsaetze.csv — CSV');
    expect(description).toContain('3 rows × 3 columns');
    expect(description).toContain('delimiter ";"');
    expect(description).toContain('header on line 4 (3 lines above it skipped)');
    expect(description).toContain('encoding Latin-1');
    expect(description).toContain('decimal comma in "Betrag" (read as numbers)');
    expect(description).toContain('dates written %d.%m.%Y');
    expect(description).toContain('Buchungstag | date | 0 | 3 | 2024-03-01 | 2024-03-05');
    expect(description).toContain('Betrag | decimal | 0 | 3 | -850 | 2500');
    expect(description).toContain('2024-03-02 | Gehalt | 2500');
    expect(description).toContain('2024-03-05 | Bäckerei | -4.35');
    expect(await query(`SELECT sum(Betrag) AS total FROM 'umsaetze.csv'`)).toBe('1 row, 1 column\ntotal (decimal)\n1645.65');
  });

  it('reads tab-separated UTF-8 with a byte-order mark, and a file without a header', async () => {
    const tsv = await folderWith('scores.tsv', `\uFEFFname\tscore\tpassed\nAda\t91\ttrue\nBob\t78\tfalse\n`);
    const description = await tsv.describe();
    expect(description).toContain('delimiter tab');
    expect(description).toContain('encoding UTF-8 with byte-order mark');
    expect(description).toContain('name | text |');
    expect(description).toContain('score | integer | 0 | 2 | 78 | 91');
    expect(description).toContain('passed | boolean |');

    const bare = await folderWith('points.csv', '1,2.5\n2,3.5\n3,4.5\n');
    expect(await bare.describe()).toContain('no header row: columns are named column0, column1');
    expect(await bare.query(`SELECT sum(column1) AS s FROM 'points.csv'`)).toContain('\n10.5');
  });

  it('keeps thousands dots apart from decimal points in a decimal-comma file', async () => {
    const { query } = await folderWith('amounts.csv', 'item;count;price\nA;1.200;3,50\nB;2.000;1,25\nC;900;10\n');
    expect(await query(`SELECT sum(count) AS pieces, sum(price) AS price FROM 'amounts.csv'`)).toBe('1 row, 2 columns\npieces (decimal) | price (decimal)\n4100 | 14.75');
  });

  it('shows numbers as written: no float noise, no exponent', async () => {
    const { query } = await folderWith('cents.csv', 'amount\n0.1\n0.2\n100000000000000000000\n');
    expect(await query(`SELECT sum(amount) FILTER (WHERE amount < 1) AS small, max(amount) AS big FROM 'cents.csv'`)).toContain('0.3 | 100000000000000000000');
  });

  it('reads JSON lines, and several CSV files through one pattern', async () => {
    const root = await tempFolder();
    await writeFile(path.join(root, 'events.jsonl'), '{"kind":"a","n":1}\n{"kind":"b","n":2}\n');
    await writeFile(path.join(root, 'jan.csv'), 'day,amount\n2024-01-01,5\n');
    await writeFile(path.join(root, 'feb.csv'), 'day,amount\n2024-02-01,7\n');
    const context = await toolContextFor(root);
    expect(await runTool(tableQuery, { sql: `SELECT sum(n) AS n FROM 'events.jsonl'` }, context)).toContain('\n3');
    expect(await runTool(tableQuery, { sql: `SELECT count(*) AS files, sum(amount) AS total FROM '*.csv'` }, context)).toContain('\n2 | 12');
  });
});
