import { platformLedger } from '@gridbot/db';
import { money } from '@gridbot/shared';
import { asc, eq } from 'drizzle-orm';
import type { TestApp } from '../../../testing/test-app';
import { type Account, findWallet, ledgerSums } from '../../credit/ledger.repo';

const ACCOUNTS: Account[] = ['usdtToken', 'ifcToken', 'ifxToken', 'usdtRewardToken', 'availableCredit'];

/**
 * Everything wrong with one user's platform money, as readable lines (empty when consistent): a balance
 * that differs from its ledger sum, a negative balance, or a ledger row whose balanceAfter is not the
 * previous row's plus its delta (rows in id order, which is the order the wallet row lock granted).
 */
export async function ledgerProblems(t: TestApp, userId: string): Promise<string[]> {
  const wallet = await findWallet(t.deps.db, userId);
  if (!wallet) return [`${userId}: no wallet`];
  const sums = await ledgerSums(t.deps.db, userId);
  const rows = await t.deps.db
    .select()
    .from(platformLedger)
    .where(eq(platformLedger.userId, userId))
    .orderBy(asc(platformLedger.id));
  const problems: string[] = [];
  for (const account of ACCOUNTS) {
    const balance = money(wallet[account]);
    if (!balance.eq(sums[account])) problems.push(`${account}: balance ${balance} ≠ ledger ${sums[account]}`);
    if (balance.isNeg()) problems.push(`${account}: negative balance ${balance}`);
    let running = money(0);
    for (const row of rows.filter((r) => r.account === account)) {
      running = running.plus(row.delta);
      if (!running.eq(row.balanceAfter)) {
        problems.push(
          `${account}: ledger row ${row.id} says ${row.balanceAfter} after, running sum ${running}`,
        );
      }
    }
  }
  return problems;
}
