/**
 * What the embedded sink reads from a received message without parsing its MIME tree: the header
 * lines and the decoded subject. The bodies are decoded (mailparser) only when someone reads the
 * outbox, which is rare next to receiving.
 */

export interface THeaderLine {
  /** The field name in lower case. */
  key: string;
  /** The value on one line (folding removed), still encoded as sent. */
  value: string;
}

/** The header block's lines, in order, each unfolded. */
export function headerLinesOf(raw: Buffer): THeaderLine[] {
  let end = raw.indexOf('\r\n\r\n');
  if (end < 0) end = raw.indexOf('\n\n');
  const block = raw.subarray(0, end < 0 ? raw.length : end).toString('utf8');
  const lines: THeaderLine[] = [];
  for (const line of block.split(/\r?\n(?![ \t])/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    lines.push({
      key: line.slice(0, colon).trim().toLowerCase(),
      value: line
        .slice(colon + 1)
        .replace(/\r?\n[ \t]+/g, ' ')
        .trim(),
    });
  }
  return lines;
}

export function subjectOf(headers: THeaderLine[]): string {
  const subject = headers.find((h) => h.key === 'subject');
  return subject ? decodeWords(subject.value) : '';
}

const ENCODED_WORD = /=\?([^?\s]+)\?([BbQq])\?([^?\s]*)\?=/g;

function wordBytes(encoding: string, text: string): Buffer {
  if (encoding.toUpperCase() === 'B') return Buffer.from(text, 'base64');
  return Buffer.from(
    text.replace(/_/g, ' ').replace(/=([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    'latin1',
  );
}

function decodeBytes(charset: string, bytes: Buffer): string {
  try {
    return new TextDecoder(charset.replace(/\*.*$/, '')).decode(bytes);
  } catch {
    // A charset this runtime does not know: the bytes as Latin-1 rather than nothing.
    return bytes.toString('latin1');
  }
}

/**
 * RFC 2047 encoded words to text. Adjacent words of one charset are joined before decoding (a
 * sender may split a multi-byte character across two), and the space between them is dropped.
 */
export function decodeWords(value: string): string {
  let out = '';
  let last = 0;
  let charset: string | null = null;
  let bytes: Buffer[] = [];
  const flush = () => {
    if (charset !== null) out += decodeBytes(charset, Buffer.concat(bytes));
    charset = null;
    bytes = [];
  };
  for (const m of value.matchAll(ENCODED_WORD)) {
    const [, wordCharset = '', encoding = '', text = ''] = m;
    const between = value.slice(last, m.index);
    const adjacent = charset !== null && /^[ \t]*$/.test(between);
    if (!adjacent || (charset as string | null)?.toLowerCase() !== wordCharset.toLowerCase()) {
      flush();
      if (!adjacent) out += between;
      charset = wordCharset;
    }
    bytes.push(wordBytes(encoding, text));
    last = (m.index as number) + m[0].length;
  }
  flush();
  return out + value.slice(last);
}
