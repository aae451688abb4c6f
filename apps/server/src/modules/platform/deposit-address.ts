import { depositAddresses } from '@gridbot/db';
import { eq, sql } from 'drizzle-orm';
import QRCode from 'qrcode';
import { mnemonicToAccount } from 'viem/accounts';
import type { PlatformDeps } from './platform-deps';

export type DepositAddressRow = typeof depositAddresses.$inferSelect;

/** Address `index` of the platform's HD wallet: m/44'/60'/0'/0/index (BEP-20 uses Ethereum's path). */
export function deriveDepositAddress(mnemonic: string, index: number): `0x${string}` {
  return mnemonicToAccount(mnemonic, { addressIndex: index }).address;
}

/**
 * The user's deposit address, derived and stored on first use; undefined when deposits are not configured.
 * Indexes come from a sequence, so two users never share one (a lost race only leaves a gap).
 */
export async function depositAddressOf(
  deps: PlatformDeps,
  userId: string,
): Promise<DepositAddressRow | undefined> {
  const [existing] = await deps.db.select().from(depositAddresses).where(eq(depositAddresses.userId, userId));
  if (existing) return existing;
  const mnemonic = deps.platform.chain?.mnemonic;
  if (!mnemonic) return undefined;
  const result = await deps.db.execute<{ n: string }>(
    sql`select nextval(pg_get_serial_sequence('deposit_addresses', 'hd_index'))::text as n`,
  );
  const rows = (Array.isArray(result) ? result : (result as { rows: { n: string }[] }).rows) as {
    n: string;
  }[];
  const hdIndex = Number(rows[0]?.n);
  const address = deriveDepositAddress(mnemonic, hdIndex).toLowerCase();
  await deps.db.insert(depositAddresses).values({ userId, hdIndex, address }).onConflictDoNothing();
  const [row] = await deps.db.select().from(depositAddresses).where(eq(depositAddresses.userId, userId));
  return row;
}

/** `qrCode` of the session's user data (docs/spec/02-bots-wallet-account.md §3): the checksummed address and a PNG data URL. */
export async function qrCodeOf(address: string): Promise<{ value: string; base64: string }> {
  const { getAddress } = await import('viem');
  const value = getAddress(address);
  return { value, base64: await QRCode.toDataURL(value, { margin: 1, width: 240 }) };
}
