// Imported first by main.ts, so it runs before any other module's top-level code: no module can read
// or keep a credential of the environment before it is withdrawn (issue: secrets out of the agent's reach).
import { withdrawCredentials, withdrawalWarning } from '../engine/withdrawCredentials.js';
import { shownStderr } from './terminal/shownStream.js';

const warning = withdrawalWarning(withdrawCredentials());
if (warning) shownStderr.text(`rpi-workbench: ${warning}\n`);
