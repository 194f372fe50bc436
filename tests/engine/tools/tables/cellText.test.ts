import { describe, expect, it } from 'vitest';
import { numberText } from '../../../../engine/tools/tables/cellText.js';
import { detectEncoding } from '../../../../engine/tools/tables/textEncoding.js';

describe('numbers as written', () => {
  it('drops the drift of summed doubles but keeps real digits, and never uses an exponent', () => {
    expect(numberText(-86.2899999999987)).toBe('-86.29');
    expect(numberText(0.1 + 0.2)).toBe('0.3');
    expect(numberText(52.520008123456)).toBe('52.520008123456');
    expect(numberText(1e20)).toBe('100000000000000000000');
    expect(numberText(0.0000012)).toBe('0.0000012');
    expect(numberText(-850)).toBe('-850');
    expect(numberText(Number.NaN)).toBe('NaN');
  });
});

describe('encoding detection', () => {
  it('knows UTF-8 (also cut inside a character), byte-order marks and Latin-1', () => {
    expect(detectEncoding(Buffer.from('Bäckerei;-4,35\n'), { complete: true })).toEqual({ encoding: 'utf-8', bom: false });
    expect(detectEncoding(Buffer.from('Bä').subarray(0, 2), { complete: false })).toEqual({ encoding: 'utf-8', bom: false });
    expect(detectEncoding(Buffer.from('\uFEFFa,b\n'), { complete: true })).toEqual({ encoding: 'utf-8', bom: true });
    expect(detectEncoding(Buffer.from([0xff, 0xfe, 0x61, 0x00]), { complete: true })).toEqual({ encoding: 'utf-16', bom: true });
    expect(detectEncoding(Buffer.from('B\xe4ckerei', 'latin1'), { complete: true })).toEqual({ encoding: 'latin-1', bom: false });
  });
});
