// Preloaded with `node --import` by remote-run-modules.test.ts: registers module-log-hooks.mjs,
// which appends the URL of every module the process resolves to the file named by MODULE_LOG.
import { register } from 'node:module';

register('./module-log-hooks.mjs', import.meta.url, { data: { log: process.env.MODULE_LOG } });
