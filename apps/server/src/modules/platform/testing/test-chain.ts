import ganache from 'ganache';
import {
  type Address,
  createPublicClient,
  createWalletClient,
  defineChain,
  erc20Abi,
  http,
  type PublicClient,
  parseUnits,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { TEST_TOKEN_BYTECODE } from './test-token';

const tokenAbi = [
  ...erc20Abi,
  { type: 'constructor', inputs: [{ name: 'supply', type: 'uint256' }], stateMutability: 'nonpayable' },
] as const;

export interface TestChain {
  rpcUrl: string;
  client: PublicClient;
  /** The funded account that deployed the token and holds its whole supply. */
  ownerKey: `0x${string}`;
  token: Address;
  /** The token balance of `address`, in whole tokens (18 decimals). */
  balanceOf(address: Address): Promise<number>;
  /** Sends `amount` tokens from the owner and waits for the receipt. */
  transfer(to: Address, amount: string): Promise<void>;
  /** A raw JSON-RPC call (evm_mine, evm_snapshot, evm_revert). */
  rpc(method: string, params?: unknown[]): Promise<unknown>;
  close(): Promise<void>;
}

/**
 * A real EVM node (ganache) on 127.0.0.1, one block per transaction, with the test BEP-20 token deployed
 * by a funded account that holds `supply` tokens.
 */
export async function startTestChain(supply = '1000000'): Promise<TestChain> {
  const ownerKey = generatePrivateKey();
  const server = ganache.server({
    logging: { quiet: true },
    chain: { chainId: 1337 },
    miner: { instamine: 'eager' },
    wallet: { accounts: [{ secretKey: ownerKey, balance: '0x56BC75E2D63100000' }] },
  } as never);
  await server.listen(0, '127.0.0.1');
  const rpcUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const evm = defineChain({
    id: 1337,
    name: 'ganache',
    nativeCurrency: { name: 'ETH', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
  const client = createPublicClient({ chain: evm, transport: http(rpcUrl) }) as PublicClient;
  const wallet = createWalletClient({
    account: privateKeyToAccount(ownerKey),
    chain: evm,
    transport: http(rpcUrl),
  });
  const hash = await wallet.deployContract({
    abi: tokenAbi,
    bytecode: TEST_TOKEN_BYTECODE,
    args: [parseUnits(supply, 18)],
  });
  const token = (await client.waitForTransactionReceipt({ hash })).contractAddress as Address;
  return {
    rpcUrl,
    client,
    ownerKey,
    token,
    async balanceOf(address) {
      const units = await client.readContract({
        address: token,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [address],
      });
      return Number(units / 10n ** 12n) / 1e6;
    },
    async transfer(to, amount) {
      const sent = await wallet.writeContract({
        address: token,
        abi: erc20Abi,
        functionName: 'transfer',
        args: [to, parseUnits(amount, 18)],
      });
      await client.waitForTransactionReceipt({ hash: sent });
    },
    rpc: (method, params = []) => server.provider.request({ method, params } as never),
    close: () => server.close(),
  };
}
