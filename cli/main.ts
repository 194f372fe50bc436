import { existsSync } from 'node:fs';
import path from 'node:path';
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { configDir } from '../engine/settings/index.js';
import { startBrowserHost } from './serve/browserHost.js';

/** Exit codes: 0 done, 1 failed or cancelled, 2 usage or configuration error. */
const usageError = 2;

// esbuild bundles this file to dist/cli/main.cjs; the renderer is built next to it in dist/renderer.
const rendererDir = path.join(__dirname, '..', 'renderer');

function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port < 1 || port > 65535) throw new InvalidArgumentError('must be a whole number from 1 to 65535.');
  return port;
}

async function serve(folder: string, options: { port?: number }): Promise<void> {
  if (!existsSync(path.join(rendererDir, 'index.html'))) {
    fail(`The renderer is not built (${rendererDir} is missing): run \`npm run build\` first.`);
  }
  const host = await startBrowserHost({ folder, port: options.port ?? 0, rendererDir, configDir: configDir() }).catch((error: unknown) =>
    fail(error instanceof Error ? error.message : String(error)),
  );
  let stopping = false;
  const stop = () => {
    if (stopping) process.exit(1);
    stopping = true;
    void host.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  process.stdout.write(`RPI Workbench is serving ${host.folder}\nOpen: ${host.url}\nPress Ctrl-C to stop.\n`);
}

function fail(message: string): never {
  process.stderr.write(`rpi-workbench: ${message}\n`);
  process.exit(usageError);
}

const program = new Command()
  .name('rpi-workbench')
  .description('Research → Plan → Implement with an LLM agent on a project folder.')
  .showHelpAfterError()
  .exitOverride();

program
  .command('serve')
  .description('Serve the workbench UI for <folder> in a browser, on 127.0.0.1 with an access token.')
  .argument('<folder>', 'the project folder to open')
  .option('--port <number>', 'port to listen on (default: a free one)', parsePort)
  .action(serve);

program.parseAsync(process.argv).catch((error: unknown) => {
  if (error instanceof CommanderError) process.exit(error.exitCode === 0 ? 0 : usageError);
  process.stderr.write(`rpi-workbench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
