import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { ApprovalRequestView, Message, PlanReviewView } from '../../../engine/contract/index.js';
import { approvalDetails, approvalHeadline } from '../../../cli/terminal/approvalText.js';
import { historyJsonLines, historyTable } from '../../../cli/terminal/historyFormat.js';
import { LiveLine } from '../../../cli/terminal/liveLine.js';
import { planForReview } from '../../../cli/terminal/planReviewText.js';
import { ShownStream } from '../../../cli/terminal/shownStream.js';
import { formatStatusLine, stepLine } from '../../../cli/terminal/statusLine.js';
import { formatToolLine } from '../../../cli/terminal/toolLines.js';
import { terminalJson, visibleLine, visibleText } from '../../../cli/terminal/visibleText.js';

const esc = '\x1b';

describe('text from the model or the folder, made visible', () => {
  it('shows ESC and the sequences it starts (CSI, OSC 52 and OSC 0 ended by BEL or ST) as text', () => {
    expect(visibleText(`a${esc}[2K${esc}[Gb`)).toBe('a␛[2K␛[Gb');
    expect(visibleText(`${esc}]52;c;cHduZWQ=\x07`)).toBe('␛]52;c;cHduZWQ=␇');
    expect(visibleText(`${esc}]0;title${esc}\\`)).toBe('␛]0;title␛\\');
  });

  it('shows C1 controls (U+009B is CSI to some terminals, U+009D OSC), DEL and the other C0 controls', () => {
    expect(visibleText('\u009b2J \u009d0;t\u009c \u0085')).toBe('<U+009B>2J <U+009D>0;t<U+009C> <U+0085>');
    expect(visibleText('a\bb\x7fc\x00d\x0be\x0cf')).toBe('a␈b␡c␀d␋e␌f');
  });

  it('shows the bidi embeddings, overrides and isolates that reorder text (Trojan Source)', () => {
    expect(visibleText('x\u202Eevil\u202C \u2066y\u2069 \u202A\u202B\u202D\u2067\u2068')).toBe(
      'x<U+202E>evil<U+202C> <U+2066>y<U+2069> <U+202A><U+202B><U+202D><U+2067><U+2068>',
    );
  });

  it('keeps line feeds, tabs and CRLF in text of several lines, but shows a CR that would go back over a line', () => {
    expect(visibleText('one\n\ttwo\r\nthree')).toBe('one\n\ttwo\r\nthree');
    expect(visibleText('safe\rrm -rf ~')).toBe('safe␍rm -rf ~');
    expect(visibleText('end\r')).toBe('end␍');
  });

  it('shows line feeds, CRs and tabs too in text that must stay on its line', () => {
    expect(visibleLine('ls\nrm -rf ~\r\n\tx')).toBe('ls␊rm -rf ~␍␊␉x');
  });

  it('keeps everything else: accents, CJK, emoji, other scripts, symbols', () => {
    const ordinary = 'Café — naïve 日本語 🚀👩‍💻 שלום مرحبا ✓ ✗ ▸ █░ …';
    expect(visibleText(ordinary)).toBe(ordinary);
    expect(visibleLine(ordinary)).toBe(ordinary);
  });

  it('is idempotent: shown text is shown the same again', () => {
    const once = visibleText(`x${esc}[2K\u009b\u202E\r`);
    expect(visibleText(once)).toBe(once);
    expect(visibleLine(once)).toBe(once);
  });

  it('terminal JSON escapes what JSON.stringify leaves raw, and parses back to the same value', () => {
    const value = { text: `a${esc}[2K\u009b\u202E\x7f\n`, ok: true };
    const json = terminalJson(value);
    expect(json).toBe('{"text":"a\\u001b[2K\\u009b\\u202e\\u007f\\n","ok":true}');
    expect(JSON.parse(json)).toEqual(value);
    expect(visibleText(json)).toBe(json);
  });
});

describe('every writer shows model text, whatever the call site', () => {
  const spoofed = `touch pwned #${esc}[2K${esc}[G? Approve run_command ls`;
  const request: ApprovalRequestView = {
    requestId: 'approval-1',
    tool: 'run_command',
    args: { command: spoofed },
    path: `/home/me/${esc}[1Aproject`,
    reason: 'commands need your approval',
    canAlwaysAllow: false,
    expiresAt: 600_000,
  };

  it('the approval question names the real command, its hidden part and any line break shown', () => {
    expect(approvalHeadline(request, 0)).toBe(
      '? Approve run_command touch pwned #␛[2K␛[G? Approve run_command ls? Commands need your approval (expires in 10m 00s).',
    );
    expect(approvalHeadline({ ...request, args: { command: 'ls\nrm -rf ~' } }, 0)).toContain('? Approve run_command ls␊rm -rf ~?');
    expect(approvalDetails(request)).toContain('  real path: /home/me/␛[1Aproject');
    expect(approvalDetails({ ...request, args: { command: 'a\u009bb' } })).toContain('"command": "a\\u009bb"');
  });

  it('tool lines, the status line, the plan review and history keep the model on its line', () => {
    expect(formatToolLine({ tool: 'write_file', args: { path: `a${esc}[1A${esc}[2K.txt` }, ok: false, durationMs: 1, summary: `no\r${esc}[2K` })).toBe(
      '  ✗ write_file a␛[1A␛[2K.txt (1 ms): no ␛[2K',
    );
    const implementing = { phase: 'implement' as const, step: { current: 1, total: 1, label: `Notes${esc}[1A\r` }, items: { finished: 0, total: 1 }, tokens: 0, model: null, phaseModel: `m${esc}[2K` };
    expect(stepLine(implementing)).toBe('Implement: step 1/1: Notes␛[1A␍ · m␛[2K');
    expect(formatStatusLine(implementing, 0, 120)).toBe('Implement: step 1/1: Notes␛[1A␍ · [░░░░░░░░░░░░] 0/1 · 0s · 0 tokens');
    const view: PlanReviewView = {
      planText: `# Execution Plan\n\n## Items\n- [ ] 1. Risky${esc}[2K — delete\n`,
      items: [{ index: 0, number: 1, label: `Risky${esc}[2K`, description: 'delete', status: 'pending', rawLine: '' }],
      riskyItems: [{ index: 0, reason: 'deletes files' }],
    };
    expect(visibleText(planForReview(view))).toContain('- [ ] 1. Risky␛[2K — delete\n');
    expect(planForReview(view)).toContain('  ⚠ Step 1 (Risky␛[2K): deletes files');
    const messages: Message[] = [{ id: `m-1${esc}[2K`, role: 'assistant', text: `Done ${esc}]52;c;eA==\x07\nmore`, ts: 0 }];
    expect(historyTable(messages).split('\n')[1]).toMatch(/^m-1␛\[2K {2}assistant {2}\S+ \S+ {2}Done ␛\]52;c;eA==␇$/);
    expect(JSON.parse(historyJsonLines(messages))).toMatchObject({ id: messages[0]!.id, text: messages[0]!.text });
  });

  it('a shown stream writes text visible and only the CLI own sequences raw; the live line is drawn with them', () => {
    const sink = new PassThrough();
    let written = '';
    sink.on('data', (chunk: Buffer) => (written += chunk.toString()));
    const live = new LiveLine(new ShownStream(sink), true);
    live.set(`Implement: step 1/1: ${esc}[1A\nx`);
    live.log(`summary ${esc}]0;t\x07\nline two`);
    live.stop();
    expect(written).toBe('\r\x1b[2KImplement: step 1/1: ␛[1A␊x\r\x1b[2Ksummary ␛]0;t␇\nline two\n\r\x1b[2KImplement: step 1/1: ␛[1A␊x\r\x1b[2K');
  });

  it('nothing in cli/ writes to stdout or stderr but a shown stream (the editor and readline aside)', () => {
    const cliRoot = fileURLToPath(new URL('../../../cli/', import.meta.url));
    const allowed = new Map([
      ['terminal/shownStream.ts', 'the writer itself'],
      ['terminal/askLine.ts', "readline's line end when a question is withdrawn"],
      ['terminal/terminalPrompter.ts', 'stderr handed to readline, which asks the (shown) question and echoes what is typed'],
      ['commands/exit.ts', 'an empty write that waits for the flush'],
      ['chat/chatSession.ts', "stderr handed to the chat's readline (the prompt and what is typed)"],
      ['chat/chatTerminal.ts', "the chat readline's own line ends, key edits and its constant how-to-end hint"],
      ['chat/terminalKeys.ts', "what the terminal gives, written into readline's input; keys typed ahead echoed (control keys as ^X, C1 and bidi controls dropped)"],
    ]);
    const writers = readdirSync(cliRoot, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts') && !file.startsWith(`serve${path.sep}`))
      .map((file) => file.split(path.sep).join('/'))
      .filter((file) => /\.write\(|console\.(log|error|warn|info)|process\.(stdout|stderr)\b(?!\.isTTY)/.test(readFileSync(path.join(cliRoot, file), 'utf8')));
    expect(writers.filter((file) => !allowed.has(file)).sort()).toEqual([]);
  });
});
