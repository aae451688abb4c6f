/**
 * Backtest CLI (docs/trading-rules.md §2.5); `--help` prints the flags. Runs as compiled JavaScript
 * (scripts/backtest.mjs builds it when the sources changed). Bad files or flags exit non-zero with
 * a one-line message.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import {
  CsvFormatError,
  type CsvReader,
  candleCsvReader,
  DEFAULT_FEE_PCT,
  findMaintBrackets,
  findMarketRules,
  fundingCsvReader,
  type MarketRules,
} from '@gridbot/shared';
import { type Candles, joinCandles } from '../backtest/candles';
import { formatBacktestTable } from '../backtest/format';
import { startGridBacktest } from '../backtest/grid-backtest';
import { type FundingRates, runBacktest } from '../backtest/run-backtest';
import type { EngineState } from '../engine';
import { compileRules } from '../rules';
import { createCycle } from '../strategies/cycle/cycle.state';
import { parseCycle } from '../strategies/cycle/parse-cycle';
import { validateCycleStart } from '../validate';
import { type BacktestArgs, parseArgs, USAGE, UsageError } from './args';
import { isRangeStrategy, rangeBacktestCli } from './range-cli';
import { readCsvFile } from './read-csv';

/** A bad input file; printed on one line. */
class InputError extends Error {}

function readJson(path: string, what: string): unknown {
  let buf: Buffer;
  try {
    buf = readFileSync(path);
  } catch (err) {
    throw new InputError(`cannot read ${what} file ${path}: ${reason(err)}`);
  }
  let text: string;
  try {
    text = (buf[0] === 0x1f && buf[1] === 0x8b ? gunzipSync(buf) : buf).toString('utf8');
  } catch {
    throw new InputError(`${what} file ${path} is not valid gzip`);
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new InputError(`${what} file ${path} is not valid JSON: ${(err as Error).message}`);
  }
}

function reason(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  return code === 'ENOENT' ? 'no such file' : String(code ?? err);
}

/** Reads a market CSV, turning every problem into one line naming the file (and the line, when it is one). */
async function readCsv<T>(path: string, what: string, reader: CsvReader<T>): Promise<T> {
  try {
    return await readCsvFile(path, reader);
  } catch (err) {
    if (err instanceof CsvFormatError) throw new InputError(`${what} ${err.message}`);
    throw new InputError(`cannot read ${what} file ${path}: ${reason(err)}`);
  }
}

function readCandles(path: string): Promise<Candles> {
  return readCsv(path, 'candles', candleCsvReader(path));
}

/**
 * The candle files named by `--candles`: a file as given; a folder gives its candle files
 * (`*.csv` / `*.csv.gz`, no funding files) whose names contain the symbol and the market.
 */
function candleFiles(args: BacktestArgs): string[] {
  const market = args.category === 'future' ? 'futures' : 'spot';
  return args.candles.flatMap((path) => {
    let dir = false;
    try {
      dir = statSync(path).isDirectory();
    } catch (err) {
      throw new InputError(`cannot read candles file ${path}: ${reason(err)}`);
    }
    if (!dir) return [path];
    const names = readdirSync(path)
      .filter((n) => /\.csv(\.gz)?$/.test(n) && !n.includes('funding'))
      .filter((n) => n.toUpperCase().includes(args.symbol) && n.toLowerCase().includes(market))
      .filter((n) => args.interval === null || n.includes(`-${args.interval}-`))
      .sort();
    if (names.length === 0)
      throw new InputError(`no ${market} candle files for ${args.symbol} in folder ${path}`);
    // Candles of different intervals cannot be joined into one path.
    const intervals = [...new Set(names.map((n) => /-(\d+[mhdw])-/.exec(n)?.[1] ?? '?'))].sort();
    if (intervals.length > 1) {
      throw new UsageError(
        `folder ${path} has ${args.symbol} ${market} candles of several intervals (${intervals.join(', ')}): choose one with --interval`,
      );
    }
    return names.map((n) => join(path, n));
  });
}

async function readFunding(path: string): Promise<FundingRates> {
  const { timeMs, rate } = await readCsv(path, 'funding', fundingCsvReader(path));
  return { timeMs: Float64Array.from(timeMs), rate: Float64Array.from(rate) };
}

function buildState(
  args: BacktestArgs,
  startTimeMs: number,
  firstPrice: number,
  market: MarketRules,
): EngineState {
  const leverage = args.category === 'future' ? (args.leverage ?? 1) : 1;
  const maintMarginRate = compileRules(market).maintMarginRate;
  const maintBrackets = findMaintBrackets(args.symbol);
  if (args.strategy !== null) {
    const start = startGridBacktest(
      {
        strategy: readJson(args.strategy, 'strategy'),
        symbol: args.symbol,
        category: args.category,
        investment: args.investment as number,
        leverage,
        stoplossPrice: args.stoploss,
        pausePrice: args.pause,
        restartPrice: args.restart,
        profitBookPct: args.profitBookPct,
      },
      startTimeMs,
      firstPrice,
    );
    if (start.ok) return start.state;
    const problems = start.problems.join('; ');
    throw new InputError(start.stage === 'strategy' ? `strategy ${args.strategy}: ${problems}` : problems);
  }
  if (args.pause !== null || args.restart !== null || args.profitBookPct !== null) {
    throw new UsageError(
      '--pause, --restart and --profit-book apply to --strategy; a cycle has its stop_loss',
    );
  }
  const cyclePath = args.cycle as string;
  const parsed = parseCycle(readJson(cyclePath, 'cycle'));
  if (!parsed.ok) throw new InputError(`cycle ${cyclePath}: ${parsed.errors.join('; ')}`);
  const amount = args.investment ?? parsed.value.params.amount;
  if (!(amount > 0)) throw new UsageError('--investment is required when the cycle file has no amount');
  const params = { ...parsed.value.params, amount, stopLoss: args.stoploss ?? parsed.value.params.stopLoss };
  const problems = validateCycleStart(params, market, leverage);
  if (problems.length > 0) throw new InputError(problems.map((p) => p.message).join('; '));
  return createCycle({
    params,
    market: args.category,
    leverage,
    startTimeMs,
    maintMarginRate,
    maintBrackets,
  });
}

async function main(argv: readonly string[]): Promise<number> {
  if (argv.includes('--help')) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const args = parseArgs(argv);
  const market = findMarketRules(args.symbol, args.category);
  if (!market) throw new UsageError(`unknown ${args.category} symbol ${args.symbol}`);
  const rules = compileRules(market);
  const files = candleFiles(args);
  const [parts, markParts, funding] = await Promise.all([
    Promise.all(files.map(readCandles)),
    Promise.all(args.markCandles.map(readCandles)),
    args.funding === null ? null : readFunding(args.funding),
  ]);
  const candles = joinCandles(parts, args.fromMs ?? undefined, args.toMs ?? undefined);
  const mark =
    markParts.length === 0 ? null : joinCandles(markParts, args.fromMs ?? undefined, args.toMs ?? undefined);
  if (candles.openTimeMs.length === 0) throw new InputError('no candles in the --from/--to range');
  const strategy = args.strategy === null ? null : readJson(args.strategy, 'strategy');
  if (isRangeStrategy(strategy)) {
    const mark =
      args.markCandles.length === 0
        ? null
        : joinCandles(await Promise.all(args.markCandles.map(readCandles)));
    const range = rangeBacktestCli(args, strategy as Record<string, unknown>, candles, funding, mark);
    if ('problem' in range) throw new InputError(range.problem);
    process.stdout.write(range.output);
    return 0;
  }
  if (args.markCandles.length > 0) throw new UsageError('--mark-candles applies to a futures range grid');
  const state = buildState(args, candles.openTimeMs[0] as number, candles.open[0] as number, market);
  const feePct = args.feePct ?? DEFAULT_FEE_PCT[args.category];
  const result = runBacktest(state, candles, rules, { feePct, slippageBps: args.slippageBps, funding, mark });
  process.stdout.write(
    args.json
      ? `${JSON.stringify({ fills: result.fills, summary: result.summary, equityCurve: result.equityCurve })}\n`
      : formatBacktestTable(result.fills, result.summary),
  );
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    if (err instanceof UsageError) {
      process.stderr.write(`backtest: ${err.message} (run with --help for usage)\n`);
      process.exitCode = 2;
    } else if (err instanceof InputError) {
      process.stderr.write(`backtest: ${err.message}\n`);
      process.exitCode = 1;
    } else {
      throw err;
    }
  },
);
