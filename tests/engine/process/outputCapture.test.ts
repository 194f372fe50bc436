import { describe, expect, it } from 'vitest';
import { OutputCapture } from '../../../engine/process/outputCapture.js';

function captured(chunks: (string | Buffer)[], limits = { headBytes: 8, tailBytes: 8 }): OutputCapture {
  const capture = new OutputCapture(limits);
  for (const chunk of chunks) capture.add(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return capture;
}

describe('OutputCapture', () => {
  it('keeps output that fits whole, across chunk boundaries', () => {
    const capture = captured(['hello ', 'wor', 'ld!!!!']);
    expect(capture.text()).toBe('hello world!!!!');
    expect(capture.totalBytes).toBe(15);
  });

  it('keeps exactly head plus tail bytes without a note', () => {
    expect(captured(['0123456789abcdef']).text()).toBe('0123456789abcdef');
  });

  it('keeps the head and the tail of longer output, with a line saying how many bytes were left out', () => {
    const capture = captured(['HEAD-123', 'middle '.repeat(1000), 'TAIL-xyz']);
    expect(capture.text()).toBe('HEAD-123\n… 7000 bytes omitted …\nTAIL-xyz');
    expect(capture.totalBytes).toBe(7016);
  });

  it('keeps the real tail when it arrives one byte at a time', () => {
    const capture = captured([...'abcdefgh0123456789ABCDEFGH'].map((char) => Buffer.from(char)));
    expect(capture.text()).toBe('abcdefgh\n… 10 bytes omitted …\nABCDEFGH');
  });

  it('never splits a UTF-8 character at either cut; its bytes count as omitted', () => {
    // The head ends in 2 of the 3 bytes of the first "€"; the tail starts with the last byte of the second.
    const capture = captured(['abcdef€', 'padding', '€éxyzé']);
    const text = capture.text();
    expect(text).not.toContain('\uFFFD');
    expect(text).toBe('abcdef\n… 13 bytes omitted …\néxyzé');
    expect(capture.totalBytes).toBe(6 + 3 + 7 + 3 + 2 + 3 + 2);
  });

  it('holds no more than the limits, however much arrives', () => {
    const capture = captured(Array.from({ length: 1000 }, () => Buffer.alloc(1000, 'x')), { headBytes: 100, tailBytes: 100 });
    expect(capture.totalBytes).toBe(1_000_000);
    expect(capture.text()).toBe(`${'x'.repeat(100)}\n… 999800 bytes omitted …\n${'x'.repeat(100)}`);
  });
});
