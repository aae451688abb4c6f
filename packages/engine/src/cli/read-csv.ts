/**
 * Reads a market CSV file for the CLI, gzip or plain (told by its magic bytes, not its name): the file is
 * streamed through gunzip into the strict reader of @gridbot/shared, so a large file is never held as text.
 */
import { createReadStream } from 'node:fs';
import { createGunzip } from 'node:zlib';
import { CsvFormatError, type CsvReader } from '@gridbot/shared';

export async function readCsvFile<T>(path: string, reader: CsvReader<T>): Promise<T> {
  const raw = createReadStream(path, { highWaterMark: 1 << 20 });
  const first = await new Promise<Buffer>((resolve, reject) => {
    raw.once('readable', () => {
      const b = raw.read(2) as Buffer | null;
      if (b !== null) raw.unshift(b);
      resolve(b ?? Buffer.alloc(0));
    });
    raw.once('error', reject);
  });
  const gz = first.length === 2 && first[0] === 0x1f && first[1] === 0x8b;
  if (!gz && path.endsWith('.gz')) throw new CsvFormatError(path, undefined, 'ends in .gz but is not gzip');
  const stream = gz ? raw.pipe(createGunzip({ chunkSize: 1 << 20 })) : raw;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) reader.push(chunk);
  } catch (err) {
    if (err instanceof CsvFormatError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'Z_DATA_ERROR' || code === 'Z_BUF_ERROR')
      throw new CsvFormatError(path, undefined, 'not valid gzip');
    throw err;
  }
  return reader.end();
}
