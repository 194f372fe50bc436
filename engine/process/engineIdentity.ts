import { randomBytes } from 'node:crypto';

/**
 * This engine process's id, the first part of every command marker (`<engine>.<command>`), so the
 * commands of one engine can be told from another's: by its watchdog when it dies, and by the next
 * engine on the same folder when it finds them left running.
 */
export const engineId = randomBytes(6).toString('hex');
