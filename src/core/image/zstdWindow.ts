import { Transform, type TransformCallback } from 'node:stream';

/*
 * fzstd allocates each frame's whole window when it reads the frame header, so a 1 KB frame that
 * declares a 1.9 GB window costs 1.9 GB. This pass-through reads only the frame and block headers
 * (RFC 8878) and fails the stream on a window over the limit before the decoder sees the frame.
 */

/** zstd's own default for decoders (ZSTD_WINDOWLOG_LIMIT_DEFAULT = 27); `zstd --long=31` output is refused. */
export const MAX_ZSTD_WINDOW = 128 * 1024 * 1024;

const FCS_BYTES = [0, 2, 4, 8];
const DICT_BYTES = [0, 1, 2, 4];

function littleEndian(b: number[], from: number, n: number): number {
  let v = 0;
  for (let i = n - 1; i >= 0; i--) v = v * 256 + (b[from + i] ?? 0);
  return v;
}

/** Fails with `refuse(windowBytes)` on a frame whose window is over `limit`; passes every byte on unchanged. */
export class ZstdWindowGuard extends Transform {
  private want = 4;
  private got: number[] = [];
  private skip = 0;
  private step: (b: number[]) => void = (b) => this.magic(b);
  private descriptor = 0;

  constructor(
    private readonly limit: number,
    private readonly refuse: (window: number) => Error,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback): void {
    try {
      for (let i = 0; i < chunk.length;) {
        if (this.skip > 0) {
          const n = Math.min(this.skip, chunk.length - i);
          this.skip -= n;
          i += n;
          continue;
        }
        this.got.push(chunk[i++] ?? 0);
        if (this.got.length === this.want) {
          const b = this.got;
          this.got = [];
          this.step(b);
        }
      }
      cb(null, chunk);
    } catch (e) {
      cb(e as Error);
    }
  }

  private next(want: number, step: (b: number[]) => void, skip = 0): void {
    this.want = want;
    this.step = step;
    this.skip = skip;
  }

  private magic(b: number[]): void {
    const zstd = b[0] === 0x28 && b[1] === 0xb5 && b[2] === 0x2f && b[3] === 0xfd;
    // Skippable frames (0x184D2A50–5F): a 4-byte size, then that many bytes.
    const skippable = ((b[0] ?? 0) & 0xf0) === 0x50 && b[1] === 0x2a && b[2] === 0x4d && b[3] === 0x18;
    if (zstd) this.next(1, (d) => this.frameHeader(d));
    else if (skippable) this.next(4, (n) => this.next(4, (m) => this.magic(m), littleEndian(n, 0, 4)));
    // Not a frame: the decoder reports it as corrupt data.
    else this.next(4, () => undefined, Infinity);
  }

  private frameHeader([d = 0]: number[]): void {
    this.descriptor = d;
    const single = (d >> 5) & 1;
    const fcsFlag = d >> 6;
    const rest = (single ? 0 : 1) + (DICT_BYTES[d & 3] ?? 0) + (fcsFlag === 0 ? single : (FCS_BYTES[fcsFlag] ?? 0));
    this.next(rest, (h) => this.window(h));
  }

  private window(h: number[]): void {
    const d = this.descriptor;
    const single = (d >> 5) & 1;
    let size: number;
    if (!single) {
      const w = h[0] ?? 0;
      const base = 2 ** (10 + (w >> 3));
      size = base + (base / 8) * (w & 7);
    } else {
      const fcsFlag = d >> 6;
      const n = fcsFlag === 0 ? 1 : (FCS_BYTES[fcsFlag] ?? 0);
      size = littleEndian(h, DICT_BYTES[d & 3] ?? 0, n) + (fcsFlag === 1 ? 256 : 0);
    }
    if (size > this.limit) throw this.refuse(size);
    this.next(3, (b) => this.block(b));
  }

  private block(b: number[]): void {
    const v = littleEndian(b, 0, 3);
    const last = v & 1;
    const type = (v >> 1) & 3;
    const body = type === 1 ? 1 : v >>> 3;
    const checksum = (this.descriptor >> 2) & 1;
    // After the last block: its checksum (when the frame has one), then the next frame's magic.
    if (!last) this.next(3, (n) => this.block(n), body);
    else this.next(4, (n) => this.magic(n), body + (checksum ? 4 : 0));
  }
}
