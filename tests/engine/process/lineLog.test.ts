import { describe, expect, it } from 'vitest';
import { LineLog } from '../../../engine/process/lineLog.js';

function lineLog(limits = { maxLines: 100, maxLineChars: 100 }): { lines: LineLog; logged: string[] } {
  const logged: string[] = [];
  return { lines: new LineLog({ log: (line) => logged.push(line), ...limits }), logged };
}

describe('LineLog', () => {
  it('passes on each line as soon as it is complete, and the unfinished last one at the end', () => {
    const { lines, logged } = lineLog();
    lines.write('stdout', Buffer.from('one\ntw'));
    expect(logged).toEqual(['one']);
    lines.write('stdout', Buffer.from('o\r\nthree'));
    expect(logged).toEqual(['one', 'two']);
    lines.end();
    expect(logged).toEqual(['one', 'two', 'three']);
  });

  it('keeps the unfinished lines of stdout and stderr apart', () => {
    const { lines, logged } = lineLog();
    lines.write('stdout', Buffer.from('out-'));
    lines.write('stderr', Buffer.from('err-'));
    lines.write('stdout', Buffer.from('line\n'));
    lines.write('stderr', Buffer.from('line\n'));
    expect(logged).toEqual(['out-line', 'err-line']);
  });

  it('joins a UTF-8 character split across chunks', () => {
    const { lines, logged } = lineLog();
    const bytes = Buffer.from('naïve €\n');
    for (const byte of bytes) lines.write('stdout', Buffer.from([byte]));
    expect(logged).toEqual(['naïve €']);
  });

  it('cuts long lines, even ones that never end', () => {
    const { lines, logged } = lineLog({ maxLines: 100, maxLineChars: 5 });
    lines.write('stdout', Buffer.from('0123456789\nshort\n'));
    for (let i = 0; i < 1000; i += 1) lines.write('stderr', Buffer.from('x'.repeat(1000)));
    lines.end();
    expect(logged).toEqual(['01234…', 'short', 'xxxxx…']);
  });

  it('stops after its line budget with one notice', () => {
    const { lines, logged } = lineLog({ maxLines: 3, maxLineChars: 100 });
    lines.write('stdout', Buffer.from('1\n2\n3\n4\n5\n6\n'));
    lines.end();
    expect(logged).toEqual(['1', '2', '3', '… more than 3 lines of output; the rest is not shown here']);
  });
});
