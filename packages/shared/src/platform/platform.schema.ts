import { z } from 'zod';
import { platformMessages as m } from './platform.messages';

/** Platform success code (docs/spec/01-core-screens.md §9); every other code carries `msg` (docs/architecture.md §4). */
export const PLATFORM_OK = '0000';
/** Our codes for failures (the spec only fixes '0000'). */
export const PLATFORM_ERROR_CODES = {
  badRequest: '4000',
  unauthorized: '4010',
  notFound: '4040',
  conflict: '4090',
  notConfigured: '5030',
  serverError: '5000',
} as const;

/** History lists in the platform area show 10 per page (docs/spec/02-bots-wallet-account.md §9). */
export const PLATFORM_PAGE_SIZE = 10;
/** Default listening window for a deposit, seconds; the server may configure another. */
export const USDT_LISTEN_SECONDS_DEFAULT = 900;
/** Default confirmation depth before a deposit is credited. */
export const CHAIN_CONFIRMATIONS_DEFAULT = 15;
/** Default referral level table (docs/product.md §5): level → percent of the price. */
export const DEFAULT_LEVEL_REWARDS = [10, 5, 3, 2, 1] as const;
/** Tokens a user can deposit (docs/spec/02-bots-wallet-account.md §9: BEP-20 on BSC). */
export const PLATFORM_TOKENS = ['USDT', 'IFC', 'IFX'] as const;
export type PlatformToken = (typeof PLATFORM_TOKENS)[number];

/** Decimal amount as a number or a string of digits and one dot; always answered as a string. */
function amountField() {
  return z
    .union([z.number(), z.string().trim()], { error: m.amountRequired })
    .refine((v) => v !== '', m.amountRequired)
    .transform((v) => String(v))
    .refine((v) => /^-?\d+(\.\d+)?$/.test(v) && Number.isFinite(Number(v)), m.amountNumber)
    .refine((v) => Number(v) > 0, m.amountPositive)
    .refine((v) => /^\d+(\.\d{1,8})?$/.test(v), m.amountNumber);
}

/** A BEP-20 address. The checksum (EIP-55) of a mixed-case address is checked by the server. */
export const bep20AddressField = z
  .string({ error: m.addressRequired })
  .trim()
  .min(1, m.addressRequired)
  .regex(/^0x[0-9a-fA-F]{40}$/, m.addressInvalid);

/**
 * Body of every platform list call: `{filters, limit: 10, page}` (docs/spec/01-core-screens.md §7, docs/spec/02-bots-wallet-account.md §7).
 * `filters` is accepted as an object and ignored except where a list documents a key.
 */
export const platformListInputSchema = z.object({
  filters: z
    .record(z.string(), z.unknown())
    .nullish()
    .transform((v) => v ?? {}),
  limit: z.coerce.number().int().min(1).max(100).default(PLATFORM_PAGE_SIZE),
  page: z.coerce.number().int().min(1).default(1),
});
export type PlatformListInput = z.input<typeof platformListInputSchema>;

/** POST /subscription/create {planId}. */
export const subscriptionCreateInputSchema = z.object({
  planId: z
    .union([z.string(), z.number()], { error: m.planRequired })
    .transform((v) => String(v).trim())
    .refine((v) => v !== '', m.planRequired),
});
export type SubscriptionCreateInput = z.input<typeof subscriptionCreateInputSchema>;

/** POST /withdraw/create {amount, toAddress} (docs/spec/02-bots-wallet-account.md §5: both required). */
export const withdrawCreateInputSchema = z.object({
  amount: amountField(),
  toAddress: bep20AddressField,
  /** With two-factor sign-in on: the code, asked again before a withdrawal. */
  code: z.string().trim().max(20).optional(),
});
export type WithdrawCreateInput = z.input<typeof withdrawCreateInputSchema>;

/** POST /swap/usdt-reward/create {amount}: rewards to the USDT wallet (docs/spec/02-bots-wallet-account.md §5). */
export const swapRewardInputSchema = z.object({ amount: amountField() });
export type SwapRewardInput = z.input<typeof swapRewardInputSchema>;

/** The 'transfer to usdt wallet' form: also at most the rewards balance (docs/spec/02-bots-wallet-account.md §5). */
export function swapRewardFormSchema(rewardBalance: string) {
  return swapRewardInputSchema.refine((v) => Number(v.amount) <= Number(rewardBalance), {
    path: ['amount'],
    message: m.amountAtMost(rewardBalance),
  });
}

/** The withdraw form (docs/spec/02-bots-wallet-account.md §5: amount and address required; the input takes digits and a dot). */
export const withdrawFormSchema = withdrawCreateInputSchema;

const decimalString = z
  .union([z.number(), z.string().trim()], { error: m.priceInvalid })
  .transform((v) => String(v))
  .refine((v) => /^\d+(\.\d{1,8})?$/.test(v), m.priceInvalid);

/** Admin: create or edit a plan. Prices are per token; a zero price means the token is not charged. */
export const adminPlanInputSchema = z
  .object({
    name: z.string({ error: m.planNameRequired }).trim().min(1, m.planNameRequired).max(40),
    usdtToken: decimalString,
    ifcToken: decimalString,
    ifxToken: decimalString,
    availableCredit: decimalString,
    /** Left out: a new plan is active, an edited one keeps what it was. */
    active: z.boolean().optional(),
  })
  .refine((v) => Number(v.usdtToken) + Number(v.ifcToken) + Number(v.ifxToken) > 0, {
    path: ['usdtToken'],
    message: m.planNeedsPrice,
  })
  .refine((v) => Number(v.availableCredit) > 0, { path: ['availableCredit'], message: m.planNeedsCredit });
export type AdminPlanInput = z.input<typeof adminPlanInputSchema>;

/** Admin: replace the level table. Levels are 1..n in order. */
export const adminLevelsInputSchema = z
  .object({
    rewards: z
      .array(z.object({ level: z.number().int().min(1), rewardPercentage: z.number().min(0).max(100) }), {
        error: m.levelsInvalid,
      })
      .max(20, m.levelsInvalid),
  })
  .refine((v) => v.rewards.every((r, i) => r.level === i + 1), {
    path: ['rewards'],
    message: m.levelsInvalid,
  });
export type AdminLevelsInput = z.input<typeof adminLevelsInputSchema>;

/** Admin: approve a withdrawal. Without a hot wallet the administrator enters the hash of the payout. */
export const adminApproveWithdrawalInputSchema = z.object({
  txHash: z
    .string()
    .trim()
    .regex(/^0x[0-9a-fA-F]{64}$/, m.txHashRequired)
    .optional(),
});
export type AdminApproveWithdrawalInput = z.input<typeof adminApproveWithdrawalInputSchema>;

/** Admin: reject a withdrawal (the held amount is refunded). */
export const adminRejectWithdrawalInputSchema = z.object({
  reason: z.string().trim().max(200).optional(),
});
export type AdminRejectWithdrawalInput = z.input<typeof adminRejectWithdrawalInputSchema>;

/** Largest simulated deposit (paper installs only): enough to try every plan, not an unbounded faucet. */
export const SIMULATED_DEPOSIT_MAX = 100_000;

/** POST /platform/wallet/deposit/simulate (ours; paper installs only). */
export const simulatedDepositInputSchema = z.object({
  token: z.enum(PLATFORM_TOKENS).default('USDT'),
  amount: amountField().refine((v) => Number(v) <= SIMULATED_DEPOSIT_MAX, m.simulatedDepositMax),
});

/** POST /platform/wallet/deposit/options (ours): which ways to deposit this server offers. */
export interface DepositOptions {
  /** BEP-20 deposits watched on chain (CHAIN_RPC_URL set). */
  chain: boolean;
  /** A clearly labelled simulated deposit (paper exchange, no chain, not production). */
  simulated: boolean;
}
