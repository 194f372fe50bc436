import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/** The editor git would pick: $VISUAL, then $EDITOR, then vi (notepad on Windows). */
export function editorCommand(env: NodeJS.ProcessEnv): string {
  return env.VISUAL?.trim() || env.EDITOR?.trim() || (process.platform === 'win32' ? 'notepad' : 'vi');
}

/**
 * Opens `text` in the user's editor, in a private temp file named `fileName`, and returns the saved text.
 * The editor command may carry its own arguments ("code --wait"), so it runs through the shell.
 */
export async function editInEditor(text: string, fileName: string, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const editor = editorCommand(env);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'rpi-workbench-edit-'));
  const file = path.join(dir, fileName);
  try {
    await writeFile(file, text, { mode: 0o600 });
    await runEditor(editor, file, env);
    return await readFile(file, 'utf8');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function runEditor(editor: string, file: string, env: NodeJS.ProcessEnv): Promise<void> {
  const child =
    process.platform === 'win32'
      ? spawn(`${editor} "${file}"`, { shell: true, stdio: 'inherit', env })
      : spawn('/bin/sh', ['-c', `${editor} "$1"`, editor, file], { stdio: 'inherit', env });
  return new Promise((resolve, reject) => {
    child.once('error', (error) => reject(new Error(`Cannot start the editor "${editor}" (${error.message}): set $EDITOR to one that works.`)));
    child.once('exit', (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`The editor "${editor}" exited with ${signal ?? `code ${code}`}; nothing was changed.`));
    });
  });
}
