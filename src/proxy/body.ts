// The copy of a body the proxy keeps to check while the bytes themselves stream on unchanged:
// bounded, and decoded from its content-encoding (a real server gzips its answers when the client
// accepts it, and the schema is about the JSON inside).

import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';

export type KeptBody =
  | { kind: 'kept'; bytes: Buffer }
  /** Past the copy's limit: forwarded whole, not checked. */
  | { kind: 'too_large' }
  /** An encoding the proxy cannot read, or bytes that do not decode. */
  | { kind: 'unreadable'; why: string };

const DECODERS: Record<string, (bytes: Buffer, options: { maxOutputLength: number }) => Buffer> = {
  gzip: gunzipSync,
  'x-gzip': gunzipSync,
  deflate: inflateSync,
  br: brotliDecompressSync,
};

export class BodyCopy {
  private readonly chunks: Buffer[] = [];
  private size = 0;
  private overflow = false;

  constructor(private readonly limit: number) {}

  add(chunk: Buffer): void {
    if (this.overflow) return;
    this.size += chunk.length;
    if (this.size > this.limit) {
      this.overflow = true;
      this.chunks.length = 0;
      return;
    }
    this.chunks.push(chunk);
  }

  /** The bytes as the sender meant them: `content-encoding: gzip` undone, at most `limit` of them. */
  kept(contentEncoding: string | undefined): KeptBody {
    if (this.overflow) return { kind: 'too_large' };
    let bytes: Buffer = Buffer.concat(this.chunks);
    const encodings = (contentEncoding ?? '')
      .split(',')
      .map((encoding) => encoding.trim().toLowerCase())
      .filter((encoding) => encoding !== '' && encoding !== 'identity');
    // Applied in the order listed, so undone from the last.
    for (const encoding of encodings.reverse()) {
      const decode = DECODERS[encoding];
      if (!decode) return { kind: 'unreadable', why: `content-encoding ${encoding}` };
      try {
        bytes = decode(bytes, { maxOutputLength: this.limit });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') return { kind: 'too_large' };
        return { kind: 'unreadable', why: `${encoding}: ${(error as Error).message}` };
      }
    }
    return { kind: 'kept', bytes };
  }
}
