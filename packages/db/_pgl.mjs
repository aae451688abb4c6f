import { PGlite } from '@electric-sql/pglite';
let t = performance.now();
const a = new PGlite(); await a.waitReady; console.log('initdb', (performance.now() - t).toFixed(0));
t = performance.now(); const dump = await a.dumpDataDir('none'); console.log('dump', (performance.now() - t).toFixed(0), dump.size);
t = performance.now(); const b = new PGlite({ loadDataDir: dump }); await b.waitReady; console.log('load', (performance.now() - t).toFixed(0));
t = performance.now(); const c = new PGlite(); await c.waitReady; console.log('initdb2', (performance.now() - t).toFixed(0));
