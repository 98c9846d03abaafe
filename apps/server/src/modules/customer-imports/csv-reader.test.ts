import { describe, expect, it } from 'vitest';
import { CsvError, CsvReader, guessDelimiter } from './csv-reader.ts';

function readAll(text: string, chunkSize = text.length || 1): [string[], number][] {
  const reader = new CsvReader(guessDelimiter(text.split(/[\r\n]/, 1)[0] ?? ''));
  const out: [string[], number][] = [];
  const take = (f: string[], row: number) => out.push([f, row]);
  for (let i = 0; i < text.length; i += chunkSize) reader.push(text.slice(i, i + chunkSize), take);
  reader.end(take);
  return out;
}

describe('CSV reader', () => {
  const sample = 'name,note\r\n"山田, 太郎","line1\r\nline2"\r\nplain,"say ""hi"""\n,\nlast,no newline';
  const expected: [string[], number][] = [
    [['name', 'note'], 1],
    [['山田, 太郎', 'line1\r\nline2'], 2],
    [['plain', 'say "hi"'], 3],
    [['', ''], 4],
    [['last', 'no newline'], 5],
  ];

  it('reads quoted commas, quotes and line breaks, numbering rows as a spreadsheet does', () => {
    expect(readAll(sample)).toEqual(expected);
  });

  it('gives the same records whatever the chunk boundaries', () => {
    for (const size of [1, 2, 3, 5, 7, 13]) expect(readAll(sample, size), `chunks of ${size}`).toEqual(expected);
  });

  it('keeps stray quotes and text after a closing quote', () => {
    expect(readAll('a"b,"c"d\n')).toEqual([[['a"b', 'cd'], 1]]);
  });

  it('reports a quote that never closes with its row', () => {
    expect(() => readAll('a,b\nc,"open\nd,e\n')).toThrow(CsvError);
    try {
      readAll('a,b\nc,"open\nd,e\n');
    } catch (error) {
      expect((error as CsvError).row).toBe(2);
    }
  });

  it('reads tab-separated files by their header', () => {
    expect(readAll('姓\t名\n山田\t太郎\n')).toEqual([
      [['姓', '名'], 1],
      [['山田', '太郎'], 2],
    ]);
  });

  it('ends a record on a lone CR and on a trailing comma', () => {
    expect(readAll('a,b\rc,\r')).toEqual([
      [['a', 'b'], 1],
      [['c', ''], 2],
    ]);
  });
});
