import { describe, expect, it } from 'vitest';
import { csvCell, toCsv } from './csv';

describe('csvCell', () => {
  it('quotes every cell and doubles quotes', () => {
    expect(csvCell('Casey')).toBe('"Casey"');
    expect(csvCell('say "hi", ok')).toBe('"say ""hi"", ok"');
    expect(csvCell(null)).toBe('""');
    expect(csvCell(42)).toBe('"42"');
  });

  it('makes a cell that a spreadsheet would run as a formula plain text', () => {
    for (const formula of [
      '=HYPERLINK("http://x")',
      '+1',
      '-1',
      '@SUM(A1:A2)',
      '\t=1+1',
      '\r=1+1',
      '  =1+1',
      '＝1+1',
      // Invisible format characters first: a zero-width space, a BOM, a joiner, a direction mark.
      '\u200B=1+1',
      '\uFEFF=1+1',
      '\u2060\u200D@SUM(A1)',
      '\u202E -1',
    ]) {
      expect(csvCell(formula), JSON.stringify(formula)).toBe(`"'${formula.replaceAll('"', '""')}"`);
    }
    // Text that merely contains the characters is left alone.
    expect(csvCell('a=b')).toBe('"a=b"');
    expect(csvCell('casey@example.com')).toBe('"casey@example.com"');
    expect(csvCell('91.00')).toBe('"91.00"');
    expect(csvCell('\u200Bcasey')).toBe('"\u200Bcasey"');
  });
});

describe('toCsv', () => {
  it('starts with a byte order mark and ends each line with CRLF', () => {
    expect(
      toCsv([
        ['a', 'b'],
        ['Zoë', null],
      ]),
    ).toBe('\uFEFF"a","b"\r\n"Zoë",""\r\n');
  });
});
