import { describe, expect, it } from 'vitest';
import { csvCell, csvRow } from './csv.ts';

describe('CSV cells', () => {
  it('quotes commas, quotes and newlines', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('line1\nline2')).toBe('"line1\nline2"');
    expect(csvCell('東京都新宿区')).toBe('東京都新宿区');
  });
  it('defuses formulas', () => {
    expect(csvCell('=HYPERLINK("http://evil")')).toBe(`"'=HYPERLINK(""http://evil"")"`);
    expect(csvCell('+81')).toBe("'+81");
    expect(csvCell('-1')).toBe("'-1");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell(-5)).toBe('-5');
    // A leading apostrophe is doubled, so an import that drops one gets the value back.
    expect(csvCell("'quoted")).toBe("''quoted");
  });
  it('ends rows with CRLF and leaves empty cells empty', () => {
    expect(csvRow(['a', null, 3])).toBe('a,,3\r\n');
  });
});
