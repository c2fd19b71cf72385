import { closeSync, createReadStream, mkdtempSync, openSync, rmSync, writevSync } from 'node:fs';
import { once } from 'node:events';
import os from 'node:os';
import path from 'node:path';
import { onInterrupt } from '../onInterrupt.js';
import type { ManifestFormat } from './stream.js';

/*
 * The manifest a command prints, built one document at a time. It is printed only once every input
 * succeeded (nothing half-written on stdout), so it is kept until then: in memory up to a few
 * megabytes, then in a private temporary file, so memory does not grow with the output. The file
 * (and its directory) is removed by dispose(), which every path calls, and on SIGINT/SIGTERM/SIGHUP.
 *
 * The outputs of several inputs are joined into one stream kubectl can read: a newline where one
 * did not end with one, and a `---` between two outputs unless both are JSON (a JSON stream stays
 * JSON). A stream that starts with JSON and goes on with YAML is read as YAML from its first byte
 * (kubectl picks its decoder from the start), so it is printed with a leading `---`.
 */

/** A piece of output: text, or UTF-8 bytes (what an inject worker thread sends back). */
type Part = string | Uint8Array;

const decoder = new TextDecoder();

/** The last `n` characters of a part (of bytes: decoded from enough of their end). */
function tailOf(part: Part, n: number): string {
  return typeof part === 'string' ? part.slice(-n) : decoder.decode(part.subarray(Math.max(0, part.length - 4 * n))).slice(-n);
}

/** The first `n` characters of a part. */
function headOf(part: Part, n: number): string {
  return typeof part === 'string' ? part.slice(0, n) : decoder.decode(part.subarray(0, 4 * n)).slice(0, n);
}

/** Parts as one string, or as one buffer when any of them is bytes. */
function joined(parts: readonly Part[]): string | Buffer {
  if (parts.every((p) => typeof p === 'string')) return parts.join('');
  return Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : p)));
}

/** Characters kept in memory before the rest goes to a temporary file. */
export const MEMORY_LIMIT = 8 << 20;

export class ManifestOutput {
  private parts: Part[] = [];
  private inMemory = 0;
  private file: string | undefined;
  private fd: number | undefined;
  /** Unregisters the removal of the temporary file on a signal. */
  private releaseInterrupt: (() => void) | undefined;
  private tail = '';
  private started = false;
  private inputFormat: ManifestFormat = 'yaml';
  private inputStarted = false;
  /** Format of the first and of the latest input that wrote anything. */
  private firstFormat: ManifestFormat | undefined;
  private lastFormat: ManifestFormat | undefined;
  /** A YAML output followed a JSON one at the start. */
  private leadingSeparator = false;

  constructor(private readonly memoryLimit = MEMORY_LIMIT) {}

  /** The next input's output starts here. */
  beginInput(format: ManifestFormat): void {
    this.inputFormat = format;
    this.inputStarted = false;
  }

  /** Sets the output format of the current input, known once its first document is read. */
  setFormat(format: ManifestFormat): void {
    if (!this.inputStarted) this.inputFormat = format;
  }

  write(text: Part): void {
    if (text.length === 0) return;
    if (!this.inputStarted) {
      this.inputStarted = true;
      if (this.started && !this.tail.endsWith('\n')) this.append('\n');
      const bothJson = this.lastFormat === 'json' && this.inputFormat === 'json';
      if (this.started && !bothJson && !/^(\ufeff)?---/.test(headOf(text, 4)) && !/---\r?\n$/.test(this.tail)) this.append('---\n');
      if (this.firstFormat === 'json' && this.inputFormat === 'yaml') this.leadingSeparator = true;
      this.firstFormat ??= this.inputFormat;
      this.lastFormat = this.inputFormat;
    }
    this.append(text);
  }

  private append(text: Part): void {
    this.started = true;
    this.tail = (this.tail + tailOf(text, 8)).slice(-8);
    this.parts.push(text);
    this.inMemory += text.length;
    if (this.inMemory > this.memoryLimit) this.spill();
    // Many small documents (or bare separators) as one string, not a million small ones.
    else if (this.parts.length >= 1024) this.parts = [joined(this.parts)];
  }

  private spill(): void {
    if (this.fd === undefined) {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'linkerd-output-'));
      this.releaseInterrupt = onInterrupt(() => {
        rmSync(dir, { recursive: true, force: true });
      });
      this.file = path.join(dir, 'manifest');
      this.fd = openSync(this.file, 'wx', 0o600);
    }
    // Each part as it is (no joined copy); fewer than 1024 of them, see append().
    writevSync(
      this.fd,
      this.parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : p)),
    );
    this.parts = [];
    this.inMemory = 0;
  }

  /** Writes the whole output to `out`, respecting its back-pressure. */
  async writeTo(out: NodeJS.WritableStream): Promise<void> {
    const put = async (chunk: string | Buffer) => {
      if (!out.write(chunk)) await once(out, 'drain');
    };
    if (this.leadingSeparator) await put('---\n');
    if (this.file !== undefined) {
      for await (const chunk of createReadStream(this.file)) await put(chunk as Buffer);
    }
    if (this.parts.length > 0) await put(joined(this.parts));
  }

  /** The whole output as one string (tests, small outputs). */
  async text(): Promise<string> {
    let s = this.leadingSeparator ? '---\n' : '';
    if (this.file !== undefined) {
      for await (const chunk of createReadStream(this.file, 'utf8')) s += chunk as string;
    }
    return s + this.parts.map((p) => (typeof p === 'string' ? p : decoder.decode(p))).join('');
  }

  /** Frees the temporary file, if any. */
  dispose(): void {
    this.releaseInterrupt?.();
    this.releaseInterrupt = undefined;
    if (this.fd !== undefined) closeSync(this.fd);
    if (this.file !== undefined) rmSync(path.dirname(this.file), { recursive: true, force: true });
    this.fd = undefined;
    this.file = undefined;
    this.parts = [];
  }
}
