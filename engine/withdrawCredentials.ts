/**
 * The engine's first entry: a host imports it before anything else, so credentials leave the environment
 * before any other engine module (or anything it loads) runs. It loads only the withdrawal itself.
 */
export { withdrawCredentials, withdrawalWarning } from './secrets/processCredentials.js';
