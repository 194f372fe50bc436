// Imported first by main.ts, so it runs before any other module's top-level code: no module can read
// or keep a credential of the environment before it is withdrawn, and no command the agent starts can
// find one in this process. (Chromium's helper processes copied the environment before this ran: the
// README says so.)
import { withdrawCredentials, withdrawalWarning } from '../engine/withdrawCredentials.js';

const warning = withdrawalWarning(withdrawCredentials());
if (warning) console.warn(warning);
