/**
 * PEM framing with the semantics of Go's `encoding/pem.Decode`, because linkerd's
 * errors depend on exactly where decoding stops: a bundle with a stray trailing
 * blank line fails with `not a PEM certificate`, a key file whose first block is
 * `EC PARAMETERS` fails with `unsupported block type`. This is text framing only;
 * the DER inside is parsed by @peculiar/x509 and node:crypto.
 */

export interface PemBlock {
  type: string;
  headers: Record<string, string>;
  bytes: Buffer;
}

const BEGIN = '-----BEGIN ';
const END = '\n-----END ';
const DASHES = '-----';
const STRICT_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Splits off one line (without its `\n`, `\r` or trailing blanks), as Go's pem getLine does. */
function getLine(data: string): [line: string, rest: string] {
  const newline = data.indexOf('\n');
  if (newline < 0) return [data.replace(/[ \t]+$/, ''), ''];
  const end = newline > 0 && data[newline - 1] === '\r' ? newline - 1 : newline;
  return [data.slice(0, end).replace(/[ \t]+$/, ''), data.slice(newline + 1)];
}

/**
 * Finds the next well-formed PEM block. Returns it with the text after its END line
 * (that line's newline consumed), or `undefined` when no block is left. Malformed
 * candidates are skipped, like Go does.
 */
export function decodePemBlock(text: string): { block: PemBlock; rest: string } | undefined {
  let rest = text;
  for (;;) {
    if (rest.startsWith(BEGIN)) {
      rest = rest.slice(BEGIN.length);
    } else {
      const at = rest.indexOf(`\n${BEGIN}`);
      if (at < 0) return undefined;
      rest = rest.slice(at + 1 + BEGIN.length);
    }

    let typeLine: string;
    [typeLine, rest] = getLine(rest);
    if (!typeLine.endsWith(DASHES)) continue;
    const type = typeLine.slice(0, -DASHES.length);

    const headers: Record<string, string> = {};
    let truncated = false;
    for (;;) {
      if (rest.length === 0) {
        truncated = true;
        break;
      }
      const [line, next] = getLine(rest);
      const colon = line.indexOf(':');
      if (colon < 0) break;
      headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
      rest = next;
    }
    if (truncated) return undefined;

    let endIndex: number;
    let trailerIndex: number;
    if (Object.keys(headers).length === 0 && rest.startsWith(END.slice(1))) {
      endIndex = 0;
      trailerIndex = END.length - 1;
    } else {
      endIndex = rest.indexOf(END);
      trailerIndex = endIndex + END.length;
    }
    if (endIndex < 0) continue;

    const trailerLength = type.length + DASHES.length;
    const trailer = rest.slice(trailerIndex, trailerIndex + trailerLength);
    if (trailer.length < trailerLength || !trailer.startsWith(type) || !trailer.endsWith(DASHES)) continue;
    if (getLine(rest.slice(trailerIndex + trailerLength))[0].length !== 0) continue;

    const base64 = rest.slice(0, endIndex).replace(/[ \t\r\n]/g, '');
    if (!STRICT_BASE64.test(base64)) continue;

    const after = getLine(rest.slice(endIndex + END.length - 1))[1];
    return { block: { type, headers, bytes: Buffer.from(base64, 'base64') }, rest: after };
  }
}

/** PEM-encodes DER the way Go's pem.EncodeToMemory does: 64-column base64, trailing newline. */
export function encodePem(type: string, der: ArrayBuffer | Uint8Array): string {
  const base64 = Buffer.from(der instanceof ArrayBuffer ? new Uint8Array(der) : der).toString('base64');
  const lines = base64.match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${type}-----\n${lines.map((l) => `${l}\n`).join('')}-----END ${type}-----\n`;
}
