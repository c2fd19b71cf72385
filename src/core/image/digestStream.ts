import { createHash, type Hash } from 'node:crypto';
import { Transform } from 'node:stream';

/** A pass-through that hashes (sha256) and counts what flows through it. */
export class DigestStream extends Transform {
  private readonly hash: Hash = createHash('sha256');
  size = 0;

  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: (e?: Error | null, d?: Buffer) => void): void {
    this.hash.update(chunk);
    this.size += chunk.length;
    cb(null, chunk);
  }

  /** `sha256:<hex>`, once the stream has ended. */
  digest(): string {
    return `sha256:${this.hash.digest('hex')}`;
  }
}
