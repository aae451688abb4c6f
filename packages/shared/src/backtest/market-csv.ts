/**
 * The one reader of the market CSV files (docs/trading-rules.md §2.5): Binance candles
 * (`open_time_ms,open,high,low,close,volume`) and funding rates (`funding_time_ms,funding_rate`), for the
 * backtest CLI, the replayed market, its funding rates and the scripts that build fixtures. It is strict: a
 * file with another header, a row that is not numbers, a candle whose high and low do not enclose it or a time
 * that does not move forward is an error naming the file and its line (`file:line: what`), never a row skipped
 * in silence, since a skipped row moves every result computed from the file.
 *
 * Bytes in, columns out: the caller reads (and un-gzips) the file, in one piece or as a stream, so this runs in
 * the browser too. Numbers are parsed straight from the bytes into typed arrays, with no string per line or
 * field: a decimal of up to 15 significant digits is m / 10^k with both exact, so the one correctly rounded
 * division gives the same number as `Number(text)`; longer ones fall back to `Number`.
 */
import type { CandleColumns, FundingSeries } from './candle-history';

export const CANDLE_CSV_HEADER = 'open_time_ms,open,high,low,close,volume';
export const FUNDING_CSV_HEADER = 'funding_time_ms,funding_rate';

/** A problem with a file's content; `line` is 1-based (the header is line 1), absent for the whole file. */
export class CsvFormatError extends Error {
  override readonly name = 'CsvFormatError';
  constructor(
    readonly file: string,
    readonly line: number | undefined,
    problem: string,
  ) {
    super(`${file}${line === undefined ? '' : `:${line}`}: ${problem}`);
  }
}

/** Candles of one file, ascending open time, with their volume. */
export interface CandleCsv extends CandleColumns {
  volume: Float64Array;
}

/** Feeds a file's bytes in any number of pieces, then `end()` gives what it holds. */
export interface CsvReader<T> {
  push(chunk: Uint8Array): void;
  end(): T;
}

const POW10: number[] = Array.from({ length: 23 }, (_, i) => 10 ** i);
const NL = 10;
const CR = 13;
const COMMA = 44;
const MINUS = 45;
const PLUS = 43;
const DOT = 46;
const ZERO = 48;
const NINE = 57;

const isDigit = (c: number) => c >= ZERO && c <= NINE;

/** Columns of numbers, growing as rows arrive. */
class Columns {
  cols: Float64Array[];
  n = 0;
  constructor(count: number) {
    this.cols = Array.from({ length: count }, () => new Float64Array(1 << 12));
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

/** Rows of `fields` comma-separated numbers under one header line, fed as bytes in pieces. */
class NumericCsv {
  private readonly out: Columns;
  private rest: Uint8Array = new Uint8Array(0);
  private headerSeen = false;
  /** The line the next unread byte is on. */
  private line = 1;

  constructor(
    private readonly file: string,
    private readonly header: string,
    private readonly fields: number,
  ) {
    this.out = new Columns(fields);
  }

  push(chunk: Uint8Array): void {
    let buf = chunk;
    if (this.rest.length > 0) {
      buf = new Uint8Array(this.rest.length + chunk.length);
      buf.set(this.rest);
      buf.set(chunk, this.rest.length);
    }
    let start = 0;
    if (!this.headerSeen) {
      const nl = buf.indexOf(NL);
      if (nl < 0) {
        this.rest = buf;
        return;
      }
      this.checkHeader(buf.subarray(0, nl));
      start = nl + 1;
    }
    const lastNl = buf.lastIndexOf(NL);
    if (lastNl < start) {
      this.rest = buf.slice(start);
      return;
    }
    this.parseLines(buf, start, lastNl + 1);
    this.rest = buf.slice(lastNl + 1);
  }

  end(): Float64Array[] {
    if (!this.headerSeen) {
      this.checkHeader(this.rest);
      this.rest = new Uint8Array(0);
    }
    if (this.rest.length > 0) this.parseLines(this.rest, 0, this.rest.length);
    this.rest = new Uint8Array(0);
    return this.out.trimmed();
  }

  private fail(problem: string, line = this.line): never {
    throw new CsvFormatError(this.file, line, problem);
  }

  private checkHeader(bytes: Uint8Array): void {
    // Headers are ASCII; a longer first line is no header, and its first bytes are enough to say so.
    const text = String.fromCharCode(...bytes.subarray(0, 200)).trim();
    if (text !== this.header)
      this.fail(`expected the header "${this.header}", got "${text.slice(0, 80)}"`, 1);
    this.headerSeen = true;
    this.line = 2;
  }

  /** Whole lines of `buf[start, end)`: `end` is just after a newline, or the end of the file. */
  private parseLines(buf: Uint8Array, start: number, end: number): void {
    const { fields, out } = this;
    let i = start;
    while (i < end) {
      const c0 = buf[i] as number;
      if (c0 === NL || c0 === CR) {
        if (c0 === NL) this.line += 1;
        i += 1;
        continue;
      }
      out.ensure();
      for (let f = 0; f < fields; f++) {
        i = this.parseNumber(buf, i, end, f, out.n);
        const sep = i < end ? (buf[i] as number) : NL;
        if (f < fields - 1) {
          if (sep !== COMMA) this.fail(`expected ${fields} fields, got ${f + 1}`);
          i += 1;
        } else if (sep !== NL && sep !== CR) {
          this.fail(sep === COMMA ? `more than ${fields} fields` : `field ${f + 1} is not a number`);
        }
      }
      out.n += 1;
    }
  }

  /** Reads field `f` of row `row` from `buf[i…]`; returns the index just after it. */
  private parseNumber(buf: Uint8Array, from: number, end: number, f: number, row: number): number {
    let i = from;
    const neg = buf[i] === MINUS;
    if (neg) i += 1;
    let m = 0;
    let digits = 0;
    let scale = 0;
    let dot = false;
    while (i < end) {
      const c = buf[i] as number;
      if (isDigit(c)) {
        m = m * 10 + (c - ZERO);
        digits += 1;
        if (dot) scale += 1;
      } else if (c === DOT && !dot) {
        dot = true;
      } else break;
      i += 1;
    }
    let exp = 0;
    if (i < end && (buf[i] === 101 || buf[i] === 69)) {
      i += 1;
      const eneg = buf[i] === MINUS;
      if (eneg || buf[i] === PLUS) i += 1;
      let expDigits = 0;
      while (i < end && isDigit(buf[i] as number)) {
        exp = exp * 10 + ((buf[i] as number) - ZERO);
        expDigits += 1;
        i += 1;
      }
      if (expDigits === 0) digits = 0;
      if (eneg) exp = -exp;
    }
    if (digits === 0) this.fail(`field ${f + 1} is not a number`);
    const p = exp - scale;
    let v: number;
    if (digits <= 15 && p >= -22 && p <= 22) v = p < 0 ? m / (POW10[-p] as number) : m * (POW10[p] as number);
    else {
      v = Number(String.fromCharCode(...buf.subarray(neg ? from + 1 : from, i)));
      if (!Number.isFinite(v)) this.fail(`field ${f + 1} is out of range`);
    }
    (this.out.cols[f] as Float64Array)[row] = neg ? -v : v;
    return i;
  }
}

/** Text as the bytes of an ASCII file; any other character becomes 0xff, which no number or header holds. */
function toBytes(data: Uint8Array | string): Uint8Array {
  if (typeof data !== 'string') return data;
  return Uint8Array.from(data, (c) => {
    const code = c.charCodeAt(0);
    return code > 0x7f ? 0xff : code;
  });
}

/** A reader of one candle file, checked candle by candle (prices above 0, high and low enclose open and close). */
export function candleCsvReader(file: string): CsvReader<CandleCsv> {
  const csv = new NumericCsv(file, CANDLE_CSV_HEADER, 6);
  return {
    push: (chunk) => csv.push(chunk),
    end() {
      const [openTimeMs, open, high, low, close, volume] = csv.end() as [
        Float64Array,
        Float64Array,
        Float64Array,
        Float64Array,
        Float64Array,
        Float64Array,
      ];
      const n = openTimeMs.length;
      if (n === 0) throw new CsvFormatError(file, undefined, 'no candles after the header');
      let prev = Number.NEGATIVE_INFINITY;
      for (let i = 0; i < n; i++) {
        const line = i + 2;
        const t = openTimeMs[i] as number;
        const o = open[i] as number;
        const h = high[i] as number;
        const l = low[i] as number;
        const c = close[i] as number;
        if (!(o > 0 && l > 0 && c > 0)) throw new CsvFormatError(file, line, 'a price is not above 0');
        if (h < o || h < c || l > o || l > c) {
          throw new CsvFormatError(file, line, 'high and low do not enclose open and close');
        }
        if (t <= prev)
          throw new CsvFormatError(file, line, `open_time_ms ${t} is not after the previous candle`);
        prev = t;
      }
      return { openTimeMs, open, high, low, close, volume };
    },
  };
}

/** Candles of a whole file (its bytes, or its text). */
export function parseCandleCsv(file: string, data: Uint8Array | string): CandleCsv {
  const reader = candleCsvReader(file);
  reader.push(toBytes(data));
  return reader.end();
}

/** A reader of one funding-rate file: funding times strictly ascending. A file with no row has no rates. */
export function fundingCsvReader(file: string): CsvReader<FundingSeries> {
  const csv = new NumericCsv(file, FUNDING_CSV_HEADER, 2);
  return {
    push: (chunk) => csv.push(chunk),
    end() {
      const [timeMs, rate] = csv.end() as [Float64Array, Float64Array];
      for (let i = 1; i < timeMs.length; i++) {
        if ((timeMs[i] as number) <= (timeMs[i - 1] as number)) {
          throw new CsvFormatError(file, i + 2, 'funding_time_ms is not after the previous row');
        }
      }
      return { timeMs: Array.from(timeMs), rate: Array.from(rate) };
    },
  };
}

/** Funding rates of a whole file (its bytes, or its text). */
export function parseFundingCsv(file: string, data: Uint8Array | string): FundingSeries {
  const reader = fundingCsvReader(file);
  reader.push(toBytes(data));
  return reader.end();
}
