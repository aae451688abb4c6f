import { createPublicClient, createWalletClient, defineChain, erc20Abi, http, parseUnits } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { ChainConfig } from '../../config/platform-config';

/**
 * Sends `amount` USDT from the platform's hot wallet (HOT_WALLET_PRIVATE_KEY) and answers the transaction
 * hash once the node accepted it (not yet mined: see `confirmPayout`). Only called while the withdrawal row is
 * locked, so one request is paid once.
 */
export async function sendUsdtPayout(
  chain: ChainConfig,
  to: `0x${string}`,
  amount: string,
): Promise<`0x${string}`> {
  const contract = chain.tokens.USDT;
  if (!chain.hotWalletKey || !contract) throw new Error('hot wallet or USDT contract not configured');
  const publicClient = createPublicClient({ transport: http(chain.rpcUrl) });
  const id = await publicClient.getChainId();
  const evm = defineChain({
    id,
    name: `chain-${id}`,
    nativeCurrency: { name: 'BNB', symbol: 'BNB', decimals: 18 },
    rpcUrls: { default: { http: [chain.rpcUrl] } },
  });
  const decimals = await publicClient.readContract({
    address: contract,
    abi: erc20Abi,
    functionName: 'decimals',
  });
  const wallet = createWalletClient({
    account: privateKeyToAccount(chain.hotWalletKey),
    chain: evm,
    transport: http(chain.rpcUrl),
  });
  return wallet.writeContract({
    address: contract,
    abi: erc20Abi,
    functionName: 'transfer',
    args: [to, parseUnits(amount, Number(decimals))],
  });
}

/** Longest an approval waits for its payout to be mined (BSC makes a block every few seconds). */
const RECEIPT_TIMEOUT_MS = 120_000;

/**
 * Waits until the payout `hash` is mined: sent is not paid. Throws when it reverted or no receipt came in
 * time; the withdrawal then stays PENDING with its payout marked as tried and its hash recorded.
 */
export async function confirmPayout(chain: ChainConfig, hash: `0x${string}`): Promise<void> {
  const publicClient = createPublicClient({ transport: http(chain.rpcUrl) });
  const receipt = await publicClient.waitForTransactionReceipt({ hash, timeout: RECEIPT_TIMEOUT_MS });
  if (receipt.status !== 'success') throw new Error(`payout ${hash} reverted on the chain`);
}
