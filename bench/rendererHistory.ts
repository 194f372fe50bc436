import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Page } from '@playwright/test';
import { startBrowserHost } from '../cli/serve/browserHost.js';
import type { Message } from '../engine/contract/index.js';
import config, { chromiumPath } from '../playwright.config.js';
import { median, seededRandom } from './tools.js';

const messageCount = 2_000;
const rounds = 5;
const scrollSteps = 60;
const rendererDir = path.resolve('dist/renderer');

/** User requests and Markdown summaries as a long real session has them: lists, code blocks, tables. */
function history(): Message[] {
  const next = seededRandom(11);
  const words = ['parse', 'the', 'statement', 'dates', 'amounts', 'module', 'tests', 'config', 'refactor', 'handler', 'cache', 'report'];
  const sentence = (count: number) => Array.from({ length: count }, () => words[Math.floor(next() * words.length)]).join(' ');
  return Array.from({ length: messageCount }, (_, index): Message => {
    const ts = Date.UTC(2026, 0, 1) + index * 60_000;
    if (index % 2 === 0) return { id: `m${index}`, role: 'user', text: `${sentence(12)}.\n${sentence(8)}?`, ts };
    const parts = [`Done: ${sentence(10)}.`, '', `- ${sentence(6)}`, `- ${sentence(7)}`, `- ${sentence(5)}`];
    if (index % 5 === 1) parts.push('', '```ts', `export function f${index}(a: number) {`, `  return a * ${index};`, '}', '```');
    if (index % 7 === 1) parts.push('', '| file | change |', '|---|---|', `| src/a${index}.ts | ${sentence(3)} |`, `| src/b${index}.ts | ${sentence(3)} |`);
    return { id: `m${index}`, role: 'assistant', text: parts.join('\n'), ts };
  });
}

/** The same messages drawn as plain preformatted text, all at once, by a page with no framework. */
function plainPage(messages: Message[]): string {
  const data = JSON.stringify(messages).replaceAll('<', '\\u003c');
  return `<!doctype html><html><head><meta charset="utf-8"><style>body{margin:0;font:14px system-ui}#log{height:100vh;overflow:auto}pre{white-space:pre-wrap;margin:8px 16px}</style></head>
<body><div id="log"></div><script>
const messages = ${data};
const log = document.getElementById('log');
for (const m of messages) { const p = document.createElement('pre'); p.dataset.testid = 'message'; p.textContent = m.text; log.append(p); }
log.scrollTop = log.scrollHeight;
</script></body></html>`;
}

function servePage(html: string): Promise<{ url: string; server: Server }> {
  const server = createServer((_request, response) => response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html));
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, server })));
}

/** Milliseconds from navigation to the last message painted, and the DOM size once it is. */
async function timeToHistory(page: Page, url: string, lastText: string): Promise<{ ms: number; elements: number }> {
  await page.goto(url, { waitUntil: 'commit' });
  await page.waitForFunction(
    (text) => [...document.querySelectorAll('[data-testid="message"]')].some((node) => node.textContent?.includes(text)),
    lastText,
    { polling: 'raf', timeout: 60_000 },
  );
  return page.evaluate(
    () =>
      new Promise<{ ms: number; elements: number }>((resolve) =>
        requestAnimationFrame(() => requestAnimationFrame(() => resolve({ ms: performance.now(), elements: document.getElementsByTagName('*').length }))),
      ),
  );
}

/** Scrolls the history from bottom to top in even steps, a frame each; returns the longest frame in ms. */
async function longestScrollFrame(page: Page): Promise<number> {
  return page.evaluate(async (steps) => {
    const scroller = [...document.querySelectorAll<HTMLElement>('*')].find((node) => node.scrollHeight > node.clientHeight + 1000);
    if (!scroller) throw new Error('no scrolling history found');
    const frame = () => new Promise<number>((resolve) => requestAnimationFrame(resolve));
    let last = await frame();
    let longest = 0;
    for (let step = steps; step >= 0; step -= 1) {
      scroller.scrollTop = (scroller.scrollHeight * step) / steps;
      const now = await frame();
      longest = Math.max(longest, now - last);
      last = now;
    }
    return longest;
  }, scrollSteps);
}

async function bundleSizes(): Promise<{ file: string; raw: number; gzip: number }[]> {
  const assets = path.join(rendererDir, 'assets');
  const files = (await readdir(assets)).filter((name) => /\.(js|css)$/.test(name));
  return Promise.all(
    files.map(async (file) => {
      const bytes = await readFile(path.join(assets, file));
      return { file, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
    }),
  );
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

export async function benchRendererHistory(): Promise<void> {
  console.log(`renderer: bundle size, and a ${messageCount.toLocaleString('en-US')}-message history in Chromium against the same messages as plain text`);
  const sizes = await bundleSizes().catch(() => {
    throw new Error(`${rendererDir} is not built: run \`npm run build\` first.`);
  });
  for (const size of sizes) console.log(`  ${size.file.padEnd(28)} ${kb(size.raw).padStart(10)}  gzip ${kb(size.gzip).padStart(9)}`);
  const total = sizes.reduce((sum, size) => sum + size.gzip, 0);
  console.log(`  bundle total (gzip)          ${kb(total)}`);

  const folder = await mkdtemp(path.join(os.tmpdir(), 'rpi-bench-history-'));
  const configDir = path.join(folder, '.config-dir');
  const messages = history();
  await mkdir(path.join(folder, '.workbench'), { recursive: true });
  await writeFile(path.join(folder, '.workbench', 'conversation.jsonl'), messages.map((message) => JSON.stringify(message)).join('\n') + '\n');
  await writeFile(path.join(folder, '.gitignore'), '.config-dir/\n');
  const host = await startBrowserHost({ folder, rendererDir, configDir, env: { OPENAI_API_KEY: '' } });
  const plain = await servePage(plainPage(messages));
  const browser = await chromium.launch({ ...config.use?.launchOptions, executablePath: chromiumPath, headless: true });
  const lastText = (messages.at(-1)?.text ?? '').split('\n')[0]!.replace(/^Done: /, '');
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const app: number[] = [];
    const text: number[] = [];
    const appFrames: number[] = [];
    const textFrames: number[] = [];
    let appElements = 0;
    let textElements = 0;
    for (let round = 0; round < rounds + 1; round += 1) {
      const a = await timeToHistory(page, host.url, lastText);
      const aFrame = await longestScrollFrame(page);
      const t = await timeToHistory(page, plain.url, lastText);
      const tFrame = await longestScrollFrame(page);
      if (round === 0) continue; // warm-up: first compile of the bundle, font loading
      app.push(a.ms);
      text.push(t.ms);
      appFrames.push(aFrame);
      textFrames.push(tFrame);
      appElements = a.elements;
      textElements = t.elements;
    }
    const [appMs, textMs] = [median(app), median(text)];
    console.log(`  time to history (median of ${rounds}, navigation → last message painted):`);
    console.log(`    workbench UI (Markdown, virtualised, over the socket)  ${appMs.toFixed(0)} ms, ${appElements.toLocaleString('en-US')} elements`);
    console.log(`    plain text (all ${messageCount} messages as <pre>)           ${textMs.toFixed(0)} ms, ${textElements.toLocaleString('en-US')} elements`);
    console.log(`    ratio ${(appMs / textMs).toFixed(2)}×`);
    console.log(`  longest frame scrolling the whole history in ${scrollSteps} steps (median): UI ${median(appFrames).toFixed(0)} ms, plain ${median(textFrames).toFixed(0)} ms`);
  } finally {
    await browser.close();
    plain.server.close();
    await host.close();
    await rm(folder, { recursive: true, force: true });
  }
}
