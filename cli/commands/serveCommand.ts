import { existsSync } from 'node:fs';
import path from 'node:path';
import { InvalidArgumentError, type Command } from 'commander';
import { configDir } from '../../engine/index.js';
import { startBrowserHost } from '../serve/browserHost.js';
import { shownStdout } from '../terminal/shownStream.js';
import { visibleLine } from '../terminal/visibleText.js';
import { CliError, exitCodes, messageOf } from './cliError.js';
import { exitWith, failWith } from './exit.js';
import { watchInterrupts } from './interrupts.js';

// esbuild bundles the CLI to dist/cli/main.cjs; the renderer is built next to it in dist/renderer.
const rendererDir = path.join(__dirname, '..', 'renderer');

function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port < 1 || port > 65535) throw new InvalidArgumentError('must be a whole number from 1 to 65535.');
  return port;
}

/** Serves until Ctrl-C or SIGTERM, then closes the host (and the folder's lock) and exits 0; a second one exits at once (130). */
async function serve(folder: string, options: { port?: number }): Promise<void> {
  if (!existsSync(path.join(rendererDir, 'index.html'))) {
    return failWith(new CliError(`The renderer is not built (${rendererDir} is missing): run \`npm run build\` first.`));
  }
  const host = await startBrowserHost({ folder, port: options.port ?? 0, rendererDir, configDir: configDir() }).catch((error: unknown) =>
    failWith(new CliError(messageOf(error))),
  );
  watchInterrupts({
    first: () => void host.close().then(() => exitWith(exitCodes.done), failWith),
    again: () => process.exit(exitCodes.interrupted),
  });
  shownStdout.text(`RPI Workbench is serving ${visibleLine(host.folder)}\nOpen: ${host.url}\nPress Ctrl-C to stop.\n`);
}

export function addServeCommand(program: Command): void {
  program
    .command('serve')
    .description('Serve the workbench UI for <folder> in a browser, on 127.0.0.1 with an access token.')
    .argument('<folder>', 'the project folder to open')
    .option('--port <number>', 'port to listen on (default: a free one)', parsePort)
    .action(serve);
}
