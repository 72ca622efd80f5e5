import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const TEXT_FILE = /\.(js|mjs|css|html|svg|json|txt|map)$/;
const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/** Best compression there is: a built file is compressed once and then sent to every browser. */
export function brotliBest(data: Buffer): Promise<Buffer> {
  return brotli(data, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: data.length } });
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

/**
 * Writes `x.br` and `x.gz` beside every text file of the build, which the console serves as they
 * are (@fastify/static's preCompressed) to a browser that asks for them.
 */
export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'fleetlink:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    async closeBundle() {
      const files = (await filesUnder(outDir)).filter((f) => TEXT_FILE.test(f));
      await Promise.all(
        files.map(async (file) => {
          const data = await readFile(file);
          await Promise.all([writeFile(`${file}.br`, await brotliBest(data)), writeFile(`${file}.gz`, await gzipped(data, { level: 9 }))]);
        }),
      );
    },
  };
}
