import iconv from 'iconv-lite';

export type TEncoding = 'utf-8' | 'cp932';

/**
 * Watches the bytes of an upload as they stream to disk and tells, at the end, how to read them:
 * UTF-8 (with or without a byte-order mark) when every byte is valid UTF-8, otherwise CP932
 * (Shift_JIS as Japanese Excel writes it). UTF-16 and binary files (an .xlsx) cannot be read.
 */
export class EncodingSniffer {
  private readonly utf8 = new TextDecoder('utf-8', { fatal: true });
  private validUtf8 = true;
  private head = Buffer.alloc(0);
  bytes = 0;

  write(chunk: Buffer): void {
    this.bytes += chunk.length;
    if (this.head.length < 4096) this.head = Buffer.concat([this.head, chunk.subarray(0, 4096 - this.head.length)]);
    if (!this.validUtf8) return;
    try {
      this.utf8.decode(chunk, { stream: true });
    } catch {
      this.validUtf8 = false;
    }
  }

  /**
   * The encoding the bytes so far point to, to start reading before the file has ended; only
   * result() is final (a byte that is not UTF-8 may still come).
   */
  guess(): TEncoding | null {
    const h = this.head;
    if (h.length >= 2 && ((h[0] === 0xff && h[1] === 0xfe) || (h[0] === 0xfe && h[1] === 0xff))) return null;
    if (h.includes(0)) return null;
    return this.validUtf8 ? 'utf-8' : 'cp932';
  }

  /** The encoding, or null when the file is not text we can read. */
  result(): TEncoding | null {
    if (this.validUtf8) {
      try {
        this.utf8.decode();
      } catch {
        // A multi-byte character cut off by the end of the file.
        this.validUtf8 = false;
      }
    }
    return this.guess();
  }
}

/** A decoder for the whole file: chunks of bytes in, text out, a UTF-8 byte-order mark dropped. */
export function textDecoder(encoding: TEncoding): { write(chunk: Buffer): string; end(): string } {
  if (encoding === 'utf-8') {
    const decoder = new TextDecoder('utf-8');
    return { write: (chunk) => decoder.decode(chunk, { stream: true }), end: () => decoder.decode() };
  }
  const decoder = iconv.getDecoder('cp932');
  return { write: (chunk) => decoder.write(chunk), end: () => decoder.end() ?? '' };
}
