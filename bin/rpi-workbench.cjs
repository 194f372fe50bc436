#!/usr/bin/env node
// The package's command. The CLI is compiled to dist/ by `npm run build`; say so plainly if it is not.
const path = require('node:path');
const entry = path.join(__dirname, '..', 'dist', 'cli', 'main.cjs');
if (!require('node:fs').existsSync(entry)) {
  process.stderr.write(`rpi-workbench: ${entry} is missing: run \`npm run build\` first.\n`);
  process.exit(2);
}
require(entry);
