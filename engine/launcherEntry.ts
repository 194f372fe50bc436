/**
 * The engine's entry for a command launcher's own process (Electron's utility process, which cannot be
 * started with source text as a Node launcher is): it runs `serveLaunches` over its channel to the engine.
 * Kept apart from index.ts so that process loads nothing of the rest of the engine.
 */
export { serveLaunches, type LauncherPort, type LauncherReply, type LauncherRequest } from './process/launcherProgram.js';
