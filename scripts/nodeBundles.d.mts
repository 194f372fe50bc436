import type { BuildOptions } from 'esbuild';

export declare const workerEntries: readonly string[];

export declare function nodeBundle(entry: string, outfile: string): BuildOptions;

export declare function nodeBundles(dist?: string): { main: BuildOptions; preload: BuildOptions; commandLauncher: BuildOptions; cli: BuildOptions; workers: BuildOptions[] };
