import { CHAIN_CONFIRMATIONS_DEFAULT, USDT_LISTEN_SECONDS_DEFAULT } from '@gridbot/shared';
import { z } from 'zod';

/** Chain side of the platform: present only when CHAIN_RPC_URL is set (docs/architecture.md §1: deposits off otherwise). */
export interface ChainConfig {
  rpcUrl: string;
  /** Blocks a transfer needs (its own included) before it is credited. */
  confirmations: number;
  /** BIP-39 phrase of the platform's deposit HD wallet (m/44'/60'/0'/0/index per user). */
  mnemonic: string | undefined;
  /** BEP-20 contracts of the three tokens; a token without one is not watched. */
  tokens: { USDT?: `0x${string}`; IFC?: `0x${string}`; IFX?: `0x${string}` };
  /** First block to scan when no cursor is stored yet; default: the safe head at first start. */
  startBlock: number | undefined;
  pollMs: number;
  /** Largest block range of one eth_getLogs call. */
  maxBlockRange: number;
  /** Private key of the hot wallet that pays withdrawals; without it the administrator enters the hash. */
  hotWalletKey: `0x${string}` | undefined;
}

export interface PlatformConfig {
  usdtListenSeconds: number;
  withdrawMin: string;
  withdrawFee: string;
  /** Profit limit every new platform wallet starts with, so a new member can try a bot (ours). */
  freeCredit: string;
  chain: ChainConfig | undefined;
}

export const defaultPlatformConfig: PlatformConfig = {
  usdtListenSeconds: USDT_LISTEN_SECONDS_DEFAULT,
  withdrawMin: '10',
  withdrawFee: '1',
  freeCredit: '100',
  chain: undefined,
};

const decimal = z.string().regex(/^\d+(\.\d+)?$/, 'must be a decimal number of 0 or more');
const address = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/, 'must be a 0x address')
  .transform((v) => v as `0x${string}`);

const platformEnvSchema = z.object({
  USDT_LISTEN_SECONDS: z.coerce.number().int().min(30).max(86_400).default(USDT_LISTEN_SECONDS_DEFAULT),
  WITHDRAW_MIN: decimal.default('10'),
  WITHDRAW_FEE: decimal.default('1'),
  FREE_PROFIT_LIMIT: decimal.default('100'),
  CHAIN_RPC_URL: z.string().url().optional(),
  CHAIN_CONFIRMATIONS: z.coerce.number().int().min(1).max(1000).default(CHAIN_CONFIRMATIONS_DEFAULT),
  CHAIN_START_BLOCK: z.coerce.number().int().min(0).optional(),
  CHAIN_POLL_MS: z.coerce.number().int().min(200).default(15_000),
  CHAIN_MAX_BLOCK_RANGE: z.coerce.number().int().min(1).max(50_000).default(2_000),
  DEPOSIT_MNEMONIC: z
    .string()
    .refine((v) => [12, 15, 18, 21, 24].includes(v.trim().split(/\s+/).length), 'must be a BIP-39 phrase')
    .optional(),
  USDT_CONTRACT: address.optional(),
  IFC_CONTRACT: address.optional(),
  IFX_CONTRACT: address.optional(),
  HOT_WALLET_PRIVATE_KEY: z
    .string()
    .regex(/^0x[0-9a-fA-F]{64}$/, 'must be a 0x-prefixed 32-byte hex key')
    .transform((v) => v as `0x${string}`)
    .optional(),
});

/** Parses the platform's variables; a bad value stops the process naming the keys. */
export function platformConfigFromEnv(source: NodeJS.ProcessEnv): PlatformConfig {
  const result = platformEnvSchema.safeParse(source);
  if (!result.success) {
    const problems = result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid environment: ${problems}`);
  }
  const env = result.data;
  return {
    usdtListenSeconds: env.USDT_LISTEN_SECONDS,
    withdrawMin: env.WITHDRAW_MIN,
    withdrawFee: env.WITHDRAW_FEE,
    freeCredit: env.FREE_PROFIT_LIMIT,
    chain: env.CHAIN_RPC_URL
      ? {
          rpcUrl: env.CHAIN_RPC_URL,
          confirmations: env.CHAIN_CONFIRMATIONS,
          mnemonic: env.DEPOSIT_MNEMONIC?.trim(),
          tokens: { USDT: env.USDT_CONTRACT, IFC: env.IFC_CONTRACT, IFX: env.IFX_CONTRACT },
          startBlock: env.CHAIN_START_BLOCK,
          pollMs: env.CHAIN_POLL_MS,
          maxBlockRange: env.CHAIN_MAX_BLOCK_RANGE,
          hotWalletKey: env.HOT_WALLET_PRIVATE_KEY,
        }
      : undefined,
  };
}
