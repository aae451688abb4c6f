import ganache from 'ganache';
import {
  type Address,
  createPublicClient,
  createWalletClient,
  defineChain,
  erc20Abi,
  formatUnits,
  http,
  type PublicClient,
  parseUnits,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { TEST_TOKEN_BYTECODE } from '../../apps/server/src/modules/platform/testing/test-token';

const tokenAbi = [
  ...erc20Abi,
  { type: 'constructor', inputs: [{ name: 'supply', type: 'uint256' }], stateMutability: 'nonpayable' },
] as const;

export interface TestChain {
  rpcUrl: string;
  /** The deployed BEP-20 test token (18 decimals), used as USDT. */
  usdt: Address;
  /** Private key of a second funded account holding `hotWalletTokens` USDT: the platform's hot wallet. */
  hotWalletKey: `0x${string}`;
  /** Transfers USDT from the deployer; instamine puts it in a block of its own (1 confirmation). */
  sendUsdt(to: Address, amount: string): Promise<`0x${string}`>;
  /** Mines empty blocks, so earlier transfers gain confirmations. */
  mine(blocks: number): Promise<void>;
  /** USDT balance of an address, as a decimal string ('19'). */
  usdtOf(address: Address): Promise<string>;
  receiptStatus(hash: `0x${string}`): Promise<string | undefined>;
  stop(): Promise<void>;
}

/**
 * A real local EVM node (ganache, the npm package) on a free 127.0.0.1 port with the embedded test ERC-20
 * deployed: the same approach as apps/server/src/modules/platform/deposit-watcher.chain.test.ts.
 */
export async function startTestChain(hotWalletTokens = '1000'): Promise<TestChain> {
  const deployerKey = generatePrivateKey();
  const hotWalletKey = generatePrivateKey();
  const ether = '0x56BC75E2D63100000'; // 100 ETH for gas
  const server = ganache.server({
    logging: { quiet: true },
    chain: { chainId: 1337 },
    miner: { instamine: 'eager' },
    wallet: {
      accounts: [
        { secretKey: deployerKey, balance: ether },
        { secretKey: hotWalletKey, balance: ether },
      ],
    },
  } as never);
  await server.listen(0, '127.0.0.1');
  const rpcUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const evm = defineChain({
    id: 1337,
    name: 'ganache',
    nativeCurrency: { name: 'BNB', symbol: 'BNB', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
  const client = createPublicClient({ chain: evm, transport: http(rpcUrl) }) as PublicClient;
  const wallet = createWalletClient({
    account: privateKeyToAccount(deployerKey),
    chain: evm,
    transport: http(rpcUrl),
  });
  const deployHash = await wallet.deployContract({
    abi: tokenAbi,
    bytecode: TEST_TOKEN_BYTECODE,
    args: [parseUnits('1000000', 18)],
  });
  const usdt = (await client.waitForTransactionReceipt({ hash: deployHash })).contractAddress as Address;

  const sendUsdt = async (to: Address, amount: string) => {
    const hash = await wallet.writeContract({
      address: usdt,
      abi: erc20Abi,
      functionName: 'transfer',
      args: [to, parseUnits(amount, 18)],
    });
    await client.waitForTransactionReceipt({ hash });
    return hash;
  };
  await sendUsdt(privateKeyToAccount(hotWalletKey).address, hotWalletTokens);

  return {
    rpcUrl,
    usdt,
    hotWalletKey,
    sendUsdt,
    async mine(blocks) {
      for (let i = 0; i < blocks; i += 1)
        await server.provider.request({ method: 'evm_mine', params: [] } as never);
    },
    async usdtOf(address) {
      const raw = await client.readContract({
        address: usdt,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [address],
      });
      return formatUnits(raw, 18);
    },
    async receiptStatus(hash) {
      const receipt = await client.getTransactionReceipt({ hash }).catch(() => undefined);
      return receipt?.status;
    },
    stop: () => server.close(),
  };
}
