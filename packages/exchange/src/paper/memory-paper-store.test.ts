import { paperStoreContract } from '../testing/paper-store-contract';
import { MemoryPaperStore } from './memory-paper-store';

paperStoreContract('MemoryPaperStore', async () => new MemoryPaperStore());
