import QRCode from 'qrcode';
import { mnemonicToAccount } from 'viem/accounts';
import type { PlatformDeps } from '../../config/platform-deps';
import {
  type DepositAddressRow,
  findDepositAddress,
  insertDepositAddress,
  nextDepositAddressIndex,
} from './platform.repo';

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
  const existing = await findDepositAddress(deps.db, userId);
  if (existing) return existing;
  const mnemonic = deps.platform.chain?.mnemonic;
  if (!mnemonic) return undefined;
  const hdIndex = await nextDepositAddressIndex(deps.db);
  const address = deriveDepositAddress(mnemonic, hdIndex).toLowerCase();
  await insertDepositAddress(deps.db, { userId, hdIndex, address });
  return findDepositAddress(deps.db, userId);
}

/** `qrCode` of the session's user data (docs/spec/02-bots-wallet-account.md §3): the checksummed address and a PNG data URL. */
export async function qrCodeOf(address: string): Promise<{ value: string; base64: string }> {
  const { getAddress } = await import('viem');
  const value = getAddress(address);
  return { value, base64: await QRCode.toDataURL(value, { margin: 1, width: 240 }) };
}
