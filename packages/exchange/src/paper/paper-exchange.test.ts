import { exchangeContract } from '../testing/exchange-contract';
import { ManualFeed } from '../testing/manual-feed';
import { MemoryPaperStore } from './memory-paper-store';
import { PaperExchange } from './paper-exchange';

exchangeContract('PaperExchange on MemoryPaperStore', async () => {
  const feed = new ManualFeed();
  const paper = new PaperExchange({ store: new MemoryPaperStore(), feed });
  await paper.start();
  return {
    exchange: paper.forUser('user-1'),
    setPrice: async (symbol, market, price) => feed.setPrice(symbol, market, price),
    close: () => paper.stop(),
  };
});
