// Reads the bundled contract from the @svc/openapi workspace package, by package name (never by
// relative path), so the docs follow whatever `spec/` exports as its bundle.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { OpenApiDocument } from './openapi.js';

const require = createRequire(import.meta.url);

export function bundlePath(): string {
  try {
    return require.resolve('@svc/openapi/openapi.json');
  } catch (cause) {
    throw new Error('The bundle @svc/openapi/openapi.json is missing: run `pnpm --filter @svc/openapi bundle` first.', {
      cause,
    });
  }
}

/** A fresh parsed copy each call: callers may mutate what they get. */
export function loadBundle(): OpenApiDocument {
  return JSON.parse(readFileSync(bundlePath(), 'utf8')) as OpenApiDocument;
}
