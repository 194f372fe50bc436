/** A project whose file map fills about 5,000 tokens: 300 files in 20 folders, none of them collapsed. */
export function bigFileMap(): Record<string, string> {
  const files: Record<string, string> = { 'README.md': '# demo\n' };
  for (let folder = 0; folder < 20; folder += 1) {
    for (let file = 0; file < 15; file += 1) files[`src/module-${folder}/component-${file}-with-a-fairly-long-descriptive-name.ts`] = 'export {};\n';
  }
  return files;
}
