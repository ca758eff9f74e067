// Module customization hooks (node:module register): every resolved module URL, one per line, into
// the file given at registration. They run off the main thread, so a synchronous append is safe.
import { appendFileSync } from 'node:fs';

let log;

export function initialize(data) {
  log = data.log;
}

export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  if (log) appendFileSync(log, `${resolved.url}\n`);
  return resolved;
}
