/** The one reader of candle and funding CSV files (docs/trading-rules.md §2.5): strict, naming file and line. */
import { describe, expect, it } from 'vitest';
import {
  CsvFormatError,
  candleCsvReader,
  fundingCsvReader,
  parseCandleCsv,
  parseFundingCsv,
} from './market-csv';

const CANDLES = [
  'open_time_ms,open,high,low,close,volume',
  '1714608000000,59000.5,59100,58900.25,59050,12.5',
  '1714608060000,59050,59075.75,59000,59010.1,3',
  '1714608120000,59010.1,59200,59010.1,59150,0.00012',
].join('\n');

const bytes = (text: string) => new TextEncoder().encode(text);

/** The error a read throws, for its fields and message. */
function failure(read: () => unknown): CsvFormatError {
  try {
    read();
  } catch (err) {
    if (err instanceof CsvFormatError) return err;
    throw err;
  }
  throw new Error('the read did not fail');
}

describe('candle CSV', () => {
  it('reads every column, numbers exactly as Number() reads them', () => {
    const c = parseCandleCsv('btc.csv', CANDLES);
    expect(Array.from(c.openTimeMs)).toEqual([1714608000000, 1714608060000, 1714608120000]);
    expect(Array.from(c.open)).toEqual([59000.5, 59050, 59010.1]);
    expect(Array.from(c.high)).toEqual([59100, 59075.75, 59200]);
    expect(Array.from(c.low)).toEqual([58900.25, 59000, 59010.1]);
    expect(Array.from(c.close)).toEqual([59050, 59010.1, 59150]);
    expect(Array.from(c.volume)).toEqual([12.5, 3, 0.00012]);
  });

  it('reads the same from bytes fed in any pieces, with Windows line ends and a blank last line', () => {
    const text = `${CANDLES.replaceAll('\n', '\r\n')}\r\n\r\n`;
    const whole = parseCandleCsv('btc.csv', bytes(text));
    for (const size of [1, 7, 40]) {
      const reader = candleCsvReader('btc.csv');
      const all = bytes(text);
      for (let i = 0; i < all.length; i += size) reader.push(all.subarray(i, i + size));
      expect(reader.end()).toEqual(whole);
    }
    expect(whole).toEqual(parseCandleCsv('btc.csv', CANDLES));
  });

  it.each([
    ['a field that is not a number', CANDLES.replace('59075.75', 'n/a'), 3, 'field 3 is not a number'],
    ['a missing field', CANDLES.replace(',59075.75', ''), 3, 'expected 6 fields, got 5'],
    ['an empty field', CANDLES.replace(',3\n', ',\n'), 3, 'field 6 is not a number'],
    ['a field too many', CANDLES.replace(',3\n', ',3,1\n'), 3, 'more than 6 fields'],
    [
      'a high below the close',
      CANDLES.replace('59200', '59100'),
      4,
      'high and low do not enclose open and close',
    ],
    ['a price of 0', CANDLES.replace('59000.5,', '0,'), 2, 'a price is not above 0'],
    [
      'a time that does not move forward',
      CANDLES.replace('1714608120000', '1714608060000'),
      4,
      'open_time_ms',
    ],
    ['another header', CANDLES.replace('open_time_ms', 'time'), 1, 'expected the header'],
  ])('refuses %s with the file and its line', (_what, text, line, problem) => {
    const error = failure(() => parseCandleCsv('data/btc.csv', text));
    expect(error.file).toBe('data/btc.csv');
    expect(error.line).toBe(line);
    expect(error.message).toMatch(new RegExp(`^data/btc\\.csv:${line}: ${problem}`));
  });

  it('refuses a file with no candle after the header', () => {
    expect(() => parseCandleCsv('empty.csv', 'open_time_ms,open,high,low,close,volume\n')).toThrow(
      'empty.csv: no candles after the header',
    );
  });
});

describe('funding CSV', () => {
  const RATES = 'funding_time_ms,funding_rate\n1746403200004,-0.00002404\n1746432000002,3.636e-5\n';

  it('reads the funding times and rates, exponents included', () => {
    expect(parseFundingCsv('rates.csv', RATES)).toEqual({
      timeMs: [1746403200004, 1746432000002],
      rate: [-0.00002404, 3.636e-5],
    });
    const reader = fundingCsvReader('rates.csv');
    reader.push(bytes(RATES.slice(0, 20)));
    reader.push(bytes(RATES.slice(20)));
    expect(reader.end()).toEqual(parseFundingCsv('rates.csv', RATES));
  });

  it('has no rates for a file that is only its header', () => {
    expect(parseFundingCsv('rates.csv', 'funding_time_ms,funding_rate\n')).toEqual({ timeMs: [], rate: [] });
  });

  it.each([
    ['a bad rate', RATES.replace('3.636e-5', '3.6x'), 3, 'field 2 is not a number'],
    [
      'a time given twice',
      RATES.replace('1746432000002', '1746403200004'),
      3,
      'funding_time_ms is not after',
    ],
    ['a candle file', CANDLES, 1, 'expected the header "funding_time_ms,funding_rate"'],
  ])('refuses %s with the file and its line', (_what, text, line, problem) => {
    expect(() => parseFundingCsv('rates.csv', text)).toThrow(`rates.csv:${line}: ${problem}`);
  });
});
