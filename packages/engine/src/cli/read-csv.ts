/**
 * Fast readers for the CLI's numeric CSV files (candles, funding rates), gzip or plain: the file is
 * streamed through gunzip and numbers are parsed straight from the bytes into typed arrays, with no
 * string per line or field. A decimal of up to 15 significant digits is m / 10^k with both exact,
 * so the one correctly rounded division gives the same number as `Number(text)`; longer ones fall
 * back to `Number`.
 */
import { createReadStream } from 'node:fs';
import { createGunzip } from 'node:zlib';

/** A problem with a file's content, with the 1-based line it is on. */
export class CsvFormatError extends Error {
  override readonly name = 'CsvFormatError';
}

const POW10: number[] = Array.from({ length: 23 }, (_, i) => 10 ** i);
const NL = 10;
const CR = 13;
const COMMA = 44;

/** Columns of numbers, growing as rows arrive. */
class Columns {
  cols: Float64Array[];
  n = 0;
  constructor(keep: number) {
    this.cols = Array.from({ length: keep }, () => new Float64Array(1 << 16));
  }
  ensure(): void {
    if (this.n < (this.cols[0] as Float64Array).length) return;
    this.cols = this.cols.map((c) => {
      const next = new Float64Array(c.length * 2);
      next.set(c);
      return next;
    });
  }
  trimmed(): Float64Array[] {
    return this.cols.map((c) => c.slice(0, this.n));
  }
}

/**
 * Parses whole lines of `buf[start, end)` (`end` just after a newline, or the end of the file).
 * Every line has `fields` comma-separated numbers; the first `keep` are stored. Returns the lines read.
 */
function parseLines(
  buf: Uint8Array,
  start: number,
  end: number,
  fields: number,
  keep: number,
  out: Columns,
  firstLine: number,
): number {
  let i = start;
  let line = firstLine;
  while (i < end) {
    const c0 = buf[i] as number;
    if (c0 === NL || c0 === CR) {
      if (c0 === NL) line += 1;
      i += 1;
      continue;
    }
    out.ensure();
    const row = out.n;
    for (let f = 0; f < fields; f++) {
      if (f >= keep) {
        // Not needed: skip to the end of the line (it must still be there).
        while (i < end && buf[i] !== NL && buf[i] !== CR && buf[i] !== COMMA) i += 1;
      } else {
        const from = i;
        let neg = false;
        if (buf[i] === 45) {
          neg = true;
          i += 1;
        }
        let m = 0;
        let digits = 0;
        let scale = 0;
        let dot = false;
        let c = 0;
        while (i < end) {
          c = buf[i] as number;
          if (c >= 48 && c <= 57) {
            m = m * 10 + (c - 48);
            digits += 1;
            if (dot) scale += 1;
          } else if (c === 46 && !dot) {
            dot = true;
          } else break;
          i += 1;
        }
        let exp = 0;
        if (i < end && (c === 101 || c === 69)) {
          i += 1;
          let eneg = false;
          if (buf[i] === 45 || buf[i] === 43) {
            eneg = buf[i] === 45;
            i += 1;
          }
          let ed = 0;
          while (i < end && (buf[i] as number) >= 48 && (buf[i] as number) <= 57) {
            exp = exp * 10 + ((buf[i] as number) - 48);
            ed += 1;
            i += 1;
          }
          if (ed === 0) digits = 0;
          if (eneg) exp = -exp;
        }
        if (digits === 0) throw new CsvFormatError(`line ${line}: field ${f + 1} is not a number`);
        const p = exp - scale;
        let v: number;
        if (digits <= 15 && p >= -22 && p <= 22)
          v = p < 0 ? m / (POW10[-p] as number) : m * (POW10[p] as number);
        else v = Number(Buffer.from(buf.buffer, buf.byteOffset + from, i - from).toString('latin1'));
        (out.cols[f] as Float64Array)[row] = neg ? -v : v;
      }
      const sep = i < end ? (buf[i] as number) : NL;
      if (f < fields - 1) {
        if (sep !== COMMA) throw new CsvFormatError(`line ${line}: expected ${fields} fields, got ${f + 1}`);
        i += 1;
      } else if (sep !== NL && sep !== CR) {
        throw new CsvFormatError(
          sep === COMMA ? `line ${line}: more than ${fields} fields` : `line ${line}: not a number`,
        );
      }
    }
    out.n += 1;
  }
  return line - firstLine;
}

/**
 * Reads a CSV of numbers with header `header` (gzip detected by its magic bytes): the first `keep`
 * of its `fields` columns, one array each.
 */
export async function readNumericCsv(
  path: string,
  header: string,
  fields: number,
  keep: number,
): Promise<Float64Array[]> {
  const raw = createReadStream(path, { highWaterMark: 1 << 20 });
  const first = await new Promise<Buffer>((resolve, reject) => {
    raw.once('readable', () => {
      const b = raw.read(2) as Buffer | null;
      if (b !== null) raw.unshift(b);
      resolve(b ?? Buffer.alloc(0));
    });
    raw.once('error', reject);
  });
  const gz = first.length === 2 && first[0] === 0x1f && first[1] === 0x8b;
  if (!gz && path.endsWith('.gz')) throw new CsvFormatError('ends in .gz but is not gzip');
  const stream = gz ? raw.pipe(createGunzip({ chunkSize: 1 << 20 })) : raw;
  const out = new Columns(keep);
  let rest: Uint8Array = new Uint8Array(0);
  let line = 1;
  let headerSeen = false;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      let buf: Uint8Array = chunk;
      if (rest.length > 0) {
        const joined = new Uint8Array(rest.length + chunk.length);
        joined.set(rest);
        joined.set(chunk, rest.length);
        buf = joined;
      }
      let start = 0;
      if (!headerSeen) {
        const nl = buf.indexOf(NL);
        if (nl < 0) {
          rest = buf;
          continue;
        }
        checkHeader(buf, nl, header);
        headerSeen = true;
        start = nl + 1;
        line = 2;
      }
      const lastNl = buf.lastIndexOf(NL);
      if (lastNl < start) {
        rest = buf.slice(start);
        continue;
      }
      line += parseLines(buf, start, lastNl + 1, fields, keep, out, line);
      rest = buf.slice(lastNl + 1);
    }
  } catch (err) {
    if (err instanceof CsvFormatError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'Z_DATA_ERROR' || code === 'Z_BUF_ERROR') throw new CsvFormatError('not valid gzip');
    throw err;
  }
  if (!headerSeen) {
    checkHeader(rest, rest.length, header);
    rest = new Uint8Array(0);
  }
  if (rest.length > 0) parseLines(rest, 0, rest.length, fields, keep, out, line);
  return out.trimmed();
}

function checkHeader(buf: Uint8Array, nl: number, header: string): void {
  const text = Buffer.from(buf.buffer, buf.byteOffset, nl).toString('utf8').trim();
  if (text !== header) {
    throw new CsvFormatError(`line 1: expected header "${header}", got "${text.slice(0, 80)}"`);
  }
}
