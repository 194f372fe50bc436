import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { DuckDBConnection, DuckDBInstance, DuckDBMaterializedResult, DuckDBResult, DuckDBValue, Json } from '@duckdb/node-api';
import { ToolError } from '../tool.js';
import { sqlString } from './sqlText.js';
import { loadDuckDb } from './duckDb.js';

export interface DuckSessionOptions {
  /** Real path of the project folder: the only place DuckDB may open a file. */
  root: string;
  /** Aborting interrupts the running query. */
  signal: AbortSignal;
  /** A query still running after this long is interrupted. */
  timeoutMs?: number;
  /** DuckDB's own memory limit; beyond it, it spills to a private temp folder. */
  memoryLimitBytes?: number;
}

const defaultTimeoutMs = 5 * 60_000;

/** A quarter of the machine's memory, between 256 MB and 2 GB. */
export function defaultMemoryLimit(): number {
  return Math.round(Math.min(2 * 1024 ** 3, Math.max(256 * 1024 ** 2, os.totalmem() / 4)));
}

/**
 * A private in-memory DuckDB for one tool call, locked down before any SQL from the model reaches it:
 * no extension is installed or loaded (nothing downloads), files can be opened only under the project
 * folder (DuckDB's `allowed_directories` with `enable_external_access=false`), and the configuration is
 * locked so no later statement can change any of that. Spilling goes to a temp folder of our own,
 * never to DuckDB's default `.tmp` in the working directory. This is the backstop: the query checker
 * resolves every file a query names through the Workspace before DuckDB sees it.
 */
export class DuckSession {
  private timedOut = false;

  private constructor(
    private readonly instance: DuckDBInstance,
    readonly connection: DuckDBConnection,
    private readonly spillFolder: string,
    private readonly timeoutMs: number,
    private readonly signal: AbortSignal,
  ) {}

  static async open({ root, signal, timeoutMs = defaultTimeoutMs, memoryLimitBytes = defaultMemoryLimit() }: DuckSessionOptions): Promise<DuckSession> {
    signal.throwIfAborted();
    const spillFolder = await mkdtemp(path.join(os.tmpdir(), 'rpi-duckdb-'));
    const instance = await (await loadDuckDb()).DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    const session = new DuckSession(instance, connection, spillFolder, timeoutMs, signal);
    try {
      for (const statement of lockdownStatements(root, spillFolder, memoryLimitBytes)) await connection.run(statement);
    } catch (error) {
      await session.close();
      throw error;
    }
    return session;
  }

  /** Runs SQL written by the engine (never the model's text as is) and reads the whole result. */
  async run(sql: string, values?: DuckDBValue[]): Promise<DuckDBMaterializedResult> {
    return this.guarded(() => this.connection.run(sql, values));
  }

  /** Runs SQL and returns its rows as DuckDB values, all read. */
  async rows(sql: string, values?: DuckDBValue[]): Promise<DuckDBValue[][]> {
    return this.guarded(async () => (await this.connection.runAndReadAll(sql, values)).getRows());
  }

  /** Runs SQL and returns its rows as plain JSON objects (dates as ISO text, big numbers as text). */
  async jsonRows(sql: string, values?: DuckDBValue[]): Promise<Record<string, Json>[]> {
    return this.guarded(async () => (await this.connection.runAndReadAll(sql, values)).getRowObjectsJson());
  }

  /** Starts a streaming result; rows are fetched chunk by chunk by the caller through `guarded`. */
  async stream(sql: string): Promise<DuckDBResult> {
    return this.guarded(() => this.connection.stream(sql));
  }

  /**
   * Runs `work` with the session's cancellation and time limit: an abort or the timeout interrupts
   * DuckDB, and the error then says which of the two stopped it.
   */
  async guarded<T>(work: () => Promise<T>): Promise<T> {
    this.signal.throwIfAborted();
    const interrupt = () => this.connection.interrupt();
    const timer = setTimeout(() => {
      this.timedOut = true;
      interrupt();
    }, this.timeoutMs);
    this.signal.addEventListener('abort', interrupt, { once: true });
    try {
      return await work();
    } catch (error) {
      if (this.signal.aborted) throw this.signal.reason ?? error;
      if (this.timedOut) throw new ToolError(`The query was stopped after ${Math.round(this.timeoutMs / 1000)} seconds. Narrow it (a WHERE, fewer columns, a LIMIT) and try again.`);
      throw error;
    } finally {
      clearTimeout(timer);
      this.signal.removeEventListener('abort', interrupt);
    }
  }

  async close(): Promise<void> {
    this.connection.closeSync();
    this.instance.closeSync();
    await rm(this.spillFolder, { recursive: true, force: true });
  }
}

/** The settings, in an order that works: the lock comes last, since it also locks the ones before it. */
function lockdownStatements(root: string, spillFolder: string, memoryLimitBytes: number): string[] {
  const folder = root.endsWith(path.sep) ? root : root + path.sep;
  return [
    'SET autoinstall_known_extensions = false',
    'SET autoload_known_extensions = false',
    `SET allowed_directories = [${sqlString(folder)}]`,
    `SET temp_directory = ${sqlString(spillFolder)}`,
    `SET memory_limit = '${Math.floor(memoryLimitBytes / 1024 ** 2)}MB'`,
    'SET enable_external_access = false',
    'SET lock_configuration = true',
  ];
}

/** Opens a session for a tool call, runs `use`, and always closes it. */
export async function withDuckSession<T>(options: DuckSessionOptions, use: (session: DuckSession) => Promise<T>): Promise<T> {
  const session = await DuckSession.open(options);
  try {
    return await use(session);
  } finally {
    await session.close();
  }
}
