// Preloaded into a CLI child (NODE_OPTIONS=--require): on exit, writes the npm packages the process loaded,
// one per line, to the file named by RPI_TEST_LOADED_PACKAGES.
const Module = require('node:module');
const { writeFileSync } = require('node:fs');
const loaded = new Set();
const compile = Module.prototype._compile;
Module.prototype._compile = function (content, filename) {
  const match = /node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)[\\/](.*)$/.exec(filename);
  if (match) loaded.add(`${match[1].replace('\\', '/')}/${match[2].replace(/\\/g, '/')}`);
  return compile.call(this, content, filename);
};
process.on('exit', () => writeFileSync(process.env.RPI_TEST_LOADED_PACKAGES, [...loaded].join('\n')));
