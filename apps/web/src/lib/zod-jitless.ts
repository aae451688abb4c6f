// zod compiles a fast parser for object schemas with `new Function` after probing whether eval is allowed.
// The app's Content-Security-Policy forbids eval (script-src 'self'), so the probe itself is reported as a
// CSP violation on every page that loads a schema. zod reads this global config when it first loads and when
// a schema is built; the chunks holding zod load later than this entry module, so set it before any of them.
const holder = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
holder.__zod_globalConfig = { ...holder.__zod_globalConfig, jitless: true };
