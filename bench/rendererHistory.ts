import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Page } from '@playwright/test';
import { startBrowserHost } from '../cli/serve/browserHost.js';
import type { Message } from '../engine/contract/index.js';
import { findChromium } from '../e2e/chromium/findChromium.js';
import config from '../playwright.config.js';
import { median, seededRandom } from './tools.js';

const messageCount = 2_000;
const rounds = 5;
const flingFrames = 240;
const flingPx = 200;
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

/**
 * Flings the history upwards from the bottom, `flingPx` a frame for `flingFrames` frames, as a fast
 * wheel or trackpad scroll does; returns the frame times in ms. Plain source text, because tsx would
 * wrap named functions in a helper the page does not have.
 */
const flingScript = `(async ([frames, px]) => {
  const scroller = [...document.querySelectorAll('*')].find((node) => node.scrollHeight > node.clientHeight + 1000);
  if (!scroller) throw new Error('no scrolling history found');
  const nextFrame = () => new Promise((resolve) => requestAnimationFrame(resolve));
  scroller.scrollTop = scroller.scrollHeight;
  let last = await nextFrame();
  const times = [];
  for (let frame = 0; frame < frames; frame += 1) {
    scroller.scrollTop -= px;
    const now = await nextFrame();
    times.push(now - last);
    last = now;
  }
  return times;
})([${flingFrames}, ${flingPx}])`;

async function flingFrameTimes(page: Page): Promise<number[]> {
  return page.evaluate<number[]>(flingScript);
}

const percentile = (list: readonly number[], p: number) => [...list].sort((x, y) => x - y)[Math.min(list.length - 1, Math.floor((list.length * p) / 100))] ?? 0;

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
  const browserPath = findChromium({ usedBy: 'the renderer bench' });
  if (!browserPath.found) {
    console.error(browserPath.message);
    process.exitCode = 1;
    return;
  }
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
  const browser = await chromium.launch({ ...config.use?.launchOptions, executablePath: browserPath.path, headless: true });
  const lastText = (messages.at(-1)?.text ?? '').split('\n')[0]!.replace(/^Done: /, '');
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const app: number[] = [];
    const text: number[] = [];
    const appFrames: number[] = [];
    const textFrames: number[] = [];
    const appLongest: number[] = [];
    const textLongest: number[] = [];
    let appElements = 0;
    let textElements = 0;
    for (let round = 0; round < rounds + 1; round += 1) {
      const a = await timeToHistory(page, host.url, lastText);
      const aFrame = await flingFrameTimes(page);
      const t = await timeToHistory(page, plain.url, lastText);
      const tFrame = await flingFrameTimes(page);
      if (round === 0) continue; // warm-up: first compile of the bundle, font loading
      app.push(a.ms);
      text.push(t.ms);
      appFrames.push(...aFrame);
      textFrames.push(...tFrame);
      appLongest.push(Math.max(...aFrame));
      textLongest.push(Math.max(...tFrame));
      appElements = a.elements;
      textElements = t.elements;
    }
    const [appMs, textMs] = [median(app), median(text)];
    console.log(`  time to history (median of ${rounds}, navigation → last message painted):`);
    console.log(`    workbench UI (Markdown, virtualised, over the socket)  ${appMs.toFixed(0)} ms, ${appElements.toLocaleString('en-US')} elements`);
    console.log(`    plain text (all ${messageCount} messages as <pre>)           ${textMs.toFixed(0)} ms, ${textElements.toLocaleString('en-US')} elements`);
    console.log(`    ratio ${(appMs / textMs).toFixed(2)}×`);
    const frames = (list: number[], longest: number[]) =>
      `median ${median(list).toFixed(1)} ms, p95 ${percentile(list, 95).toFixed(1)} ms, longest ${median(longest).toFixed(0)} ms`;
    console.log(`  frames flinging up the history (${flingPx} px a frame, ${flingFrames} frames, ${rounds} rounds):`);
    console.log(`    workbench UI  ${frames(appFrames, appLongest)}`);
    console.log(`    plain text    ${frames(textFrames, textLongest)}`);
  } finally {
    await browser.close();
    plain.server.close();
    await host.close();
    await rm(folder, { recursive: true, force: true });
  }
}
