import { afterEach, describe, expect, it } from 'vitest';
import { OkxExchange } from '../ccxt/okx-exchange';
import { FakeOkxServer } from './fake-okx-server';
import { virtualBudget } from './virtual-budget';

let fake: FakeOkxServer | undefined;
afterEach(async () => {
  await fake?.close();
});

describe("the OKX double refuses what OKX's rate limits refuse", () => {
  it("a User ID past Get balance's 10 per 2 s gets 50011 (HTTP 429); another User ID does not", async () => {
    fake = await FakeOkxServer.start({ rateLimits: true });
    const adapterOf = (apiKey: string, secret: string, passphrase: string) =>
      new OkxExchange({
        apiKey,
        secret,
        passphrase,
        baseUrl: fake!.url,
        enableRateLimit: false,
        budget: virtualBudget().budget,
        retry: { attempts: 1, sleep: async () => {}, random: () => 0.5 },
      });
    const adapter = adapterOf(fake.apiKey, fake.secret, fake.passphrase);
    const reads = await Promise.allSettled(Array.from({ length: 11 }, () => adapter.balances('spot')));
    expect(reads.filter((r) => r.status === 'rejected')).toHaveLength(1);
    expect(fake.rateLimitAnswers().map((r) => r.outcome)).toEqual(['overLimit']);
    fake.addKey('k2', 's2', 'p2');
    expect((await adapterOf('k2', 's2', 'p2').balances('spot'))[0]).toMatchObject({ asset: 'USDT' });
  });

  it('Get ticker counts per IP, 20 per 2 s: the 21st is answered 429 with code 50011', async () => {
    fake = await FakeOkxServer.start({ rateLimits: true });
    const url = `${fake.url}/api/v5/market/ticker?instId=BTC-USDT`;
    const answers = await Promise.all(
      Array.from({ length: 21 }, () =>
        fetch(url).then(async (r) => [r.status, ((await r.json()) as { code: string }).code]),
      ),
    );
    expect(answers.filter(([status]) => status === 200)).toHaveLength(20);
    expect(answers.filter(([status]) => status === 429)).toEqual([[429, '50011']]);
  });
});
