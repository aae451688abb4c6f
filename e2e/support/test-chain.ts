import type { Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { startTestChain as startTokenChain } from '../../apps/server/src/modules/platform/testing/test-chain';

/** 100 ETH (in wei) for the hot wallet's gas. */
const GAS_MONEY = '0x56BC75E2D63100000';

export interface TestChain {
  rpcUrl: string;
  /** The deployed BEP-20 test token (18 decimals), used as USDT. */
  usdt: Address;
  /** Private key of a second funded account holding `hotWalletTokens` USDT: the platform's hot wallet. */
  hotWalletKey: `0x${string}`;
  /** Transfers USDT from the deployer; instamine puts it in a block of its own (1 confirmation). */
  sendUsdt(to: Address, amount: string): Promise<void>;
  /** Mines empty blocks, so earlier transfers gain confirmations. */
  mine(blocks: number): Promise<void>;
  /** USDT balance of an address, as a decimal string ('19'). */
  usdtOf(address: Address): Promise<string>;
  receiptStatus(hash: `0x${string}`): Promise<string | undefined>;
  stop(): Promise<void>;
}

/**
 * The server's chain tests' local EVM node (ganache, with the test token deployed) plus a hot wallet: a
 * second account with gas and `hotWalletTokens` USDT, as the platform pays withdrawals from.
 */
export async function startTestChain(hotWalletTokens = '1000'): Promise<TestChain> {
  const chain = await startTokenChain();
  const hotWalletKey = generatePrivateKey();
  const hotWallet = privateKeyToAccount(hotWalletKey).address;
  await chain.rpc('evm_setAccountBalance', [hotWallet, GAS_MONEY]);
  await chain.transfer(hotWallet, hotWalletTokens);
  return {
    rpcUrl: chain.rpcUrl,
    usdt: chain.token,
    hotWalletKey,
    sendUsdt: (to, amount) => chain.transfer(to, amount),
    async mine(blocks) {
      for (let i = 0; i < blocks; i += 1) await chain.rpc('evm_mine');
    },
    usdtOf: async (address) => String(await chain.balanceOf(address)),
    async receiptStatus(hash) {
      const receipt = await chain.client.getTransactionReceipt({ hash }).catch(() => undefined);
      return receipt?.status;
    },
    stop: () => chain.close(),
  };
}
