/**
 * Backtest CLI (DESIGN §2.5):
 *   npm run backtest -- --strategy FILE.json --candles FILE.csv[.gz] --symbol BTCUSDT --investment 1000
 *     [--category future --leverage 3] [--json]      (or --cycle FILE.json instead of --strategy)
 * Bad files or flags exit non-zero with a one-line message.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { DEFAULT_FEE_PCT, findMaintBrackets, findMarketRules } from '@gridbot/shared';
import { parseCandlesCsv } from '../backtest/candles';
import { formatBacktestTable } from '../backtest/format';
import { runBacktest } from '../backtest/run-backtest';
import { createGridBot } from '../core/grid-bot.state';
import type { EngineState } from '../engine';
import { compileRules } from '../rules';
import { createCycle } from '../strategies/cycle/cycle.state';
import { parseCycle } from '../strategies/cycle/parse-cycle';
import { parseStrategy } from '../strategies/parse-strategy';
import { validateCycleStart, validateGridStart } from '../validate';
import { type BacktestArgs, parseArgs, USAGE, UsageError } from './args';

/** A bad input file; printed on one line. */
class InputError extends Error {}

function readText(path: string, what: string): string {
  let buf: Buffer;
  try {
    buf = readFileSync(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new InputError(
      `cannot read ${what} file ${path}: ${code === 'ENOENT' ? 'no such file' : String(code ?? err)}`,
    );
  }
  if (buf[0] === 0x1f && buf[1] === 0x8b) {
    try {
      return gunzipSync(buf).toString('utf8');
    } catch {
      throw new InputError(`${what} file ${path} is not valid gzip`);
    }
  }
  if (path.endsWith('.gz')) throw new InputError(`${what} file ${path} ends in .gz but is not gzip`);
  return buf.toString('utf8');
}

function readJson(path: string, what: string): unknown {
  const text = readText(path, what);
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new InputError(`${what} file ${path} is not valid JSON: ${(err as Error).message}`);
  }
}

function buildState(
  args: BacktestArgs,
  startTimeMs: number,
  maintMarginRate: number,
  rules: Parameters<typeof validateGridStart>[2],
): EngineState {
  const leverage = args.category === 'future' ? (args.leverage ?? 1) : 1;
  if (args.strategy !== null) {
    const parsed = parseStrategy(readJson(args.strategy, 'strategy'));
    if (!parsed.ok) throw new InputError(`strategy ${args.strategy}: ${parsed.errors.join('; ')}`);
    const investment = args.investment as number;
    const problems = validateGridStart(parsed.value, investment, rules, leverage);
    if (problems.length > 0) throw new InputError(problems.map((p) => p.message).join('; '));
    return createGridBot({
      params: parsed.value,
      investment,
      market: args.category,
      leverage,
      startTimeMs,
      maintMarginRate,
      maintBrackets: findMaintBrackets(args.symbol),
    });
  }
  const cyclePath = args.cycle as string;
  const parsed = parseCycle(readJson(cyclePath, 'cycle'));
  if (!parsed.ok) throw new InputError(`cycle ${cyclePath}: ${parsed.errors.join('; ')}`);
  const amount = args.investment ?? parsed.value.params.amount;
  if (!(amount > 0)) throw new UsageError('--investment is required when the cycle file has no amount');
  const params = { ...parsed.value.params, amount };
  const problems = validateCycleStart(params, rules, leverage);
  if (problems.length > 0) throw new InputError(problems.map((p) => p.message).join('; '));
  return createCycle({
    params,
    market: args.category,
    leverage,
    startTimeMs,
    maintMarginRate,
    maintBrackets: findMaintBrackets(args.symbol),
  });
}

function main(argv: readonly string[]): number {
  if (argv.includes('--help')) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const args = parseArgs(argv);
  const market = findMarketRules(args.symbol, args.category);
  if (!market) throw new UsageError(`unknown ${args.category} symbol ${args.symbol}`);
  const rules = compileRules(market);
  let candles: ReturnType<typeof parseCandlesCsv>;
  try {
    candles = parseCandlesCsv(readText(args.candles, 'candles'));
  } catch (err) {
    if (err instanceof InputError) throw err;
    throw new InputError(`candles ${args.candles}: ${(err as Error).message}`);
  }
  const state = buildState(args, candles.openTimeMs[0] as number, rules.maintMarginRate, market);
  const feePct = args.feePct ?? DEFAULT_FEE_PCT[args.category];
  const result = runBacktest(state, candles, rules, { feePct });
  process.stdout.write(
    args.json
      ? `${JSON.stringify({ fills: result.fills, summary: result.summary })}\n`
      : formatBacktestTable(result.fills, result.summary),
  );
  return 0;
}

try {
  process.exitCode = main(process.argv.slice(2));
} catch (err) {
  if (err instanceof UsageError) {
    process.stderr.write(`backtest: ${err.message} (run with --help for usage)\n`);
    process.exitCode = 2;
  } else if (err instanceof InputError) {
    process.stderr.write(`backtest: ${err.message}\n`);
    process.exitCode = 1;
  } else {
    throw err;
  }
}
