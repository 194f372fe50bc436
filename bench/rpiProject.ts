import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * The project the RPI token benchmark works on: a small shop back end with 12 domain modules that still
 * throw plain `Error`, an `AppError` the HTTP layer already understands, a README and a test per module.
 * Each module's source is built from pieces, so the benchmark's scripted edits replace real text and the
 * finished file can be compared with what it should be.
 */

type FieldKind = 'text' | 'currency' | 'email' | 'amount' | 'count' | 'flag';

interface Field {
  name: string;
  kind: FieldKind;
}

export interface Entity {
  /** File name under src/ and tests/, without extension. */
  module: string;
  type: string;
  about: string;
  fields: Field[];
  /** The field list() filters on. */
  filter: string;
}

const text = (name: string): Field => ({ name, kind: 'text' });
const amount = (name: string): Field => ({ name, kind: 'amount' });
const count = (name: string): Field => ({ name, kind: 'count' });
const flag = (name: string): Field => ({ name, kind: 'flag' });
const currency: Field = { name: 'currency', kind: 'currency' };

export const entities: readonly Entity[] = [
  { module: 'cart', type: 'Cart', about: 'open shopping carts and what is in them', fields: [text('customerId'), currency, amount('total'), count('lines'), flag('checkedOut')], filter: 'customerId' },
  { module: 'catalog', type: 'Product', about: 'the products the shop sells', fields: [text('sku'), text('title'), amount('price'), currency, flag('active')], filter: 'active' },
  { module: 'customers', type: 'Customer', about: 'customer accounts', fields: [text('name'), { name: 'email', kind: 'email' }, text('country'), flag('marketing')], filter: 'country' },
  { module: 'discounts', type: 'Discount', about: 'discount codes and their limits', fields: [text('code'), amount('percent'), count('uses'), count('maxUses'), flag('stackable')], filter: 'stackable' },
  { module: 'inventory', type: 'StockLevel', about: 'stock per product and warehouse', fields: [text('sku'), text('warehouse'), count('onHand'), count('reserved')], filter: 'warehouse' },
  { module: 'invoices', type: 'Invoice', about: 'invoices issued for orders', fields: [text('orderId'), text('number'), amount('amount'), currency, flag('paid')], filter: 'paid' },
  { module: 'orders', type: 'Order', about: 'placed orders and their state', fields: [text('customerId'), text('status'), amount('total'), currency, count('lines')], filter: 'status' },
  { module: 'payments', type: 'Payment', about: 'payments taken against orders', fields: [text('orderId'), text('provider'), amount('amount'), currency, flag('captured')], filter: 'provider' },
  { module: 'refunds', type: 'Refund', about: 'refunds of captured payments', fields: [text('paymentId'), text('reason'), amount('amount'), currency], filter: 'paymentId' },
  { module: 'reviews', type: 'Review', about: 'product reviews by customers', fields: [text('sku'), text('customerId'), count('stars'), text('body'), flag('published')], filter: 'published' },
  { module: 'shipments', type: 'Shipment', about: 'parcels sent for orders', fields: [text('orderId'), text('carrier'), text('trackingCode'), count('parcels'), flag('delivered')], filter: 'carrier' },
  { module: 'suppliers', type: 'Supplier', about: 'suppliers the shop buys stock from', fields: [text('name'), { name: 'email', kind: 'email' }, text('country'), count('leadDays')], filter: 'country' },
];

export type ErrorStyle = 'plain' | 'app';

const tsType: Record<FieldKind, string> = { text: 'string', currency: 'string', email: 'string', amount: 'number', count: 'number', flag: 'boolean' };
const sample: Record<FieldKind, string> = { text: "'x-1'", currency: "'EUR'", email: "'ann@example.com'", amount: '12.5', count: '2', flag: 'true' };

export const errorCode = (entity: Entity, kind: 'INVALID' | 'NOT_FOUND' | 'BAD_QUERY') => `${entity.module.toUpperCase()}_${kind}`;

function thrown(entity: Entity, style: ErrorStyle, kind: 'INVALID' | 'NOT_FOUND' | 'BAD_QUERY', message: string): string {
  return style === 'plain' ? `throw new Error(${message})` : `throw new AppError('${errorCode(entity, kind)}', ${message})`;
}

function fieldCheck(entity: Entity, field: Field, style: ErrorStyle): string | null {
  const fail = (what: string) => thrown(entity, style, 'INVALID', `'${entity.type}: ${field.name} ${what}'`);
  const value = `input.${field.name}`;
  switch (field.kind) {
    case 'text':
      return `  if (!${value}.trim()) ${fail('is required')};`;
    case 'currency':
      return `  if (!/^[A-Z]{3}$/.test(${value})) ${fail('must be a three-letter ISO code')};`;
    case 'email':
      return `  if (!/^[^@\\s]+@[^@\\s]+\\.[a-z]{2,}$/i.test(${value})) ${fail('must be an email address')};`;
    case 'amount':
      return `  if (!Number.isFinite(${value}) || ${value} < 0) ${fail('must be a non-negative amount')};`;
    case 'count':
      return `  if (!Number.isInteger(${value}) || ${value} < 0) ${fail('must be a non-negative whole number')};`;
    case 'flag':
      return null;
  }
}

/** The pieces of a module that the error migration changes, in the style before or after it. */
export function changingPieces(entity: Entity, style: ErrorStyle) {
  const { type } = entity;
  const checks = entity.fields.map((field) => fieldCheck(entity, field, style)).filter((line) => line !== null);
  return {
    imports: style === 'plain' ? "import { systemClock, type Clock } from './clock.js';" : "import { systemClock, type Clock } from './clock.js';\nimport { AppError } from './errors.js';",
    validate: [`export function validate${type}(input: New${type}): void {`, ...checks, '}'].join('\n'),
    getMissing: `    if (!item) ${thrown(entity, style, 'NOT_FOUND', `\`${type} \${id} not found\``)};`,
    removeMissing: `    if (!this.items.delete(id)) ${thrown(entity, style, 'NOT_FOUND', `\`${type} \${id} not found\``)};`,
    badLimit: `    if (limit < 1 || limit > MAX_PAGE) ${thrown(entity, style, 'BAD_QUERY', '`limit must be between 1 and ${MAX_PAGE}`')};`,
  };
}

export function moduleSource(entity: Entity, style: ErrorStyle): string {
  const { type, module, fields, filter } = entity;
  const pieces = changingPieces(entity, style);
  const filterType = tsType[fields.find((field) => field.name === filter)?.kind ?? 'text'];
  const numeric = fields.filter((field) => field.kind === 'amount' || field.kind === 'count');
  const flags = fields.filter((field) => field.kind === 'flag');
  const summary = [
    ...numeric.map((field) => `    ${field.name}: items.reduce((sum, item) => sum + item.${field.name}, 0),`),
    ...flags.map((field) => `    ${field.name}: items.filter((item) => item.${field.name}).length,`),
  ];
  return `/**
 * ${type} records: ${entity.about}. Kept in memory behind a small store;
 * the HTTP layer (src/http.ts) turns what the store throws into responses.
 */
${pieces.imports}

export interface ${type} {
  id: string;
${fields.map((field) => `  ${field.name}: ${tsType[field.kind]};`).join('\n')}
  createdAt: number;
  updatedAt: number;
}

export type New${type} = Omit<${type}, 'id' | 'createdAt' | 'updatedAt'>;

export interface ${type}Query {
  ${filter}?: ${filterType};
  /** Page size, 1 to MAX_PAGE. Default 20. */
  limit?: number;
  offset?: number;
}

export const MAX_PAGE = 100;

${pieces.validate}

export class ${type}Store {
  private readonly items = new Map<string, ${type}>();
  private nextId = 1;

  constructor(private readonly clock: Clock = systemClock) {}

  add(input: New${type}): ${type} {
    validate${type}(input);
    const now = this.clock.now();
    const item: ${type} = { ...input, id: \`${module.slice(0, 3)}_\${this.nextId++}\`, createdAt: now, updatedAt: now };
    this.items.set(item.id, item);
    return item;
  }

  get(id: string): ${type} {
    const item = this.items.get(id);
${pieces.getMissing}
    return item;
  }

  update(id: string, patch: Partial<New${type}>): ${type} {
    const current = this.get(id);
    const next: ${type} = { ...current, ...patch, id, updatedAt: this.clock.now() };
    validate${type}(next);
    this.items.set(id, next);
    return next;
  }

  remove(id: string): void {
${pieces.removeMissing}
  }

  list(query: ${type}Query = {}): ${type}[] {
    const limit = query.limit ?? 20;
${pieces.badLimit}
    const offset = Math.max(0, query.offset ?? 0);
    return [...this.items.values()]
      .filter((item) => query.${filter} === undefined || item.${filter} === query.${filter})
      .sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id))
      .slice(offset, offset + limit);
  }

  get size(): number {
    return this.items.size;
  }
}

/** Totals over a page of records, for the admin dashboard. */
export function summarize${type}s(items: readonly ${type}[]) {
  return {
    count: items.length,
${summary.join('\n')}
    newest: items.reduce((latest, item) => Math.max(latest, item.createdAt), 0),
  };
}

/** One line for logs and the admin list: the id, then every field as name=value. */
export function describe${type}(item: ${type}): string {
  return [item.id, ${fields.map((field) => `\`${field.name}=\${String(item.${field.name})}\``).join(', ')}].join(' ');
}
`;
}

function testSource(entity: Entity): string {
  const { type, module, fields } = entity;
  const input = fields.map((field) => `${field.name}: ${sample[field.kind]}`).join(', ');
  return `import { describe, expect, it } from 'vitest';
import { ${type}Store } from '../src/${module}.js';

const clock = { now: () => 1_700_000_000_000 };
const valid = { ${input} };

describe('${type}Store', () => {
  it('adds and reads back a record', () => {
    const store = new ${type}Store(clock);
    const added = store.add(valid);
    expect(store.get(added.id)).toEqual(added);
  });

  it('refuses an unknown id', () => {
    expect(() => new ${type}Store(clock).get('nope')).toThrow('not found');
  });

  it('pages the list', () => {
    const store = new ${type}Store(clock);
    for (let i = 0; i < 3; i += 1) store.add(valid);
    expect(store.list({ limit: 2 })).toHaveLength(2);
    expect(() => store.list({ limit: 0 })).toThrow('limit');
  });
});
`;
}

const readme = `# shopfront-core

The domain layer and HTTP adapter of a small web shop: carts, catalog, customers, orders, payments and
the rest, each as an in-memory store behind a plain TypeScript API. Persistence lives in a separate
package; this one has no I/O of its own, which keeps the tests fast.

## Layout

- \`src/<domain>.ts\` — one module per domain (${entities.map((entity) => entity.module).join(', ')}).
  Each exports the record type, a \`validate…\` function, a \`…Store\` class with add/get/update/remove/list,
  and small helpers for the admin dashboard.
- \`src/errors.ts\` — \`AppError\`, an error with a stable \`code\`, and \`statusFor\`, which maps codes to HTTP
  statuses (\`*_NOT_FOUND\` → 404, \`*_INVALID\` and \`*_BAD_QUERY\` → 400).
- \`src/http.ts\` — turns requests into store calls and errors into responses.
- \`src/clock.ts\` — the clock the stores use, replaceable in tests.
- \`tests/\` — one vitest file per domain module.

## Commands

\`\`\`sh
npm install
npm test          # vitest
npm run build     # tsc
\`\`\`

## Conventions

- Domain code throws; only \`src/http.ts\` catches. Throw \`AppError\` with a code so the client gets a
  useful status; anything else becomes a 500 with a generic message.
- Messages name the record type and the field (\`Cart: currency must be a three-letter ISO code\`) and
  are shown to API clients as they are, so keep them stable.
- No default exports; one store per module.
`;

const errorsSource = `/** An error the HTTP layer can answer precisely: a stable code, and a message shown to the client. */
export class AppError extends Error {
  override name = 'AppError';

  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** The HTTP status for an error: by its code for AppError, 500 for anything else. */
export function statusFor(error: unknown): number {
  if (!(error instanceof AppError)) return 500;
  if (error.code.endsWith('_NOT_FOUND')) return 404;
  if (error.code.endsWith('_INVALID') || error.code.endsWith('_BAD_QUERY')) return 400;
  if (error.code.endsWith('_CONFLICT')) return 409;
  return 500;
}
`;

const httpSource = `import { AppError, statusFor } from './errors.js';

export interface ApiRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  body?: unknown;
}

export interface ApiResponse {
  status: number;
  body: unknown;
}

export type Handler = (request: ApiRequest, params: Record<string, string>) => unknown;

interface Route {
  method: ApiRequest['method'];
  pattern: RegExp;
  keys: string[];
  handler: Handler;
}

/** A tiny router: \`/carts/:id\` style paths, JSON bodies, errors turned into statuses by statusFor. */
export class Router {
  private readonly routes: Route[] = [];

  on(method: ApiRequest['method'], path: string, handler: Handler): this {
    const keys: string[] = [];
    const pattern = new RegExp(
      '^' + path.replace(/:(\\w+)/g, (_, key: string) => {
        keys.push(key);
        return '([^/]+)';
      }) + '$',
    );
    this.routes.push({ method, pattern, keys, handler });
    return this;
  }

  handle(request: ApiRequest): ApiResponse {
    for (const route of this.routes) {
      if (route.method !== request.method) continue;
      const match = route.pattern.exec(request.path);
      if (!match) continue;
      const params = Object.fromEntries(route.keys.map((key, index) => [key, decodeURIComponent(match[index + 1] ?? '')]));
      try {
        return { status: request.method === 'POST' ? 201 : 200, body: route.handler(request, params) };
      } catch (error) {
        return errorResponse(error);
      }
    }
    return { status: 404, body: { error: 'NO_ROUTE', message: \`No route for \${request.method} \${request.path}\` } };
  }
}

export function errorResponse(error: unknown): ApiResponse {
  const status = statusFor(error);
  if (error instanceof AppError) return { status, body: { error: error.code, message: error.message } };
  return { status, body: { error: 'INTERNAL', message: 'Something went wrong on our side.' } };
}
`;

const clockSource = `export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
`;

const indexSource = `export * from './errors.js';
export * from './http.js';
export * from './clock.js';
${entities.map((entity) => `export * from './${entity.module}.js';`).join('\n')}
`;

/** Every file of the project before the run, by path relative to its root. */
export function projectFiles(): Record<string, string> {
  return {
    'README.md': readme,
    'package.json': `${JSON.stringify({ name: 'shopfront-core', version: '1.4.0', type: 'module', scripts: { test: 'vitest run', build: 'tsc -p .' } }, null, 2)}\n`,
    'tsconfig.json': `${JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', strict: true, outDir: 'dist' }, include: ['src'] }, null, 2)}\n`,
    'src/index.ts': indexSource,
    'src/errors.ts': errorsSource,
    'src/http.ts': httpSource,
    'src/clock.ts': clockSource,
    ...Object.fromEntries(entities.flatMap((entity) => [[`src/${entity.module}.ts`, moduleSource(entity, 'plain')], [`tests/${entity.module}.test.ts`, testSource(entity)]])),
  };
}

export async function writeProject(root: string): Promise<void> {
  for (const [relPath, content] of Object.entries(projectFiles())) {
    await mkdir(path.dirname(path.join(root, relPath)), { recursive: true });
    await writeFile(path.join(root, relPath), content);
  }
}
