// The console's configuration (Scalar's API reference, @scalar/api-reference's standalone browser
// bundle): every default that would call out of the page switched off, and the demo key of the
// contract's first server pre-filled (a reader can change it in the page; it is not kept).
import { apiKeyOf } from '@svc/spec-runtime';
import type { OpenApiDocument } from '../openapi.js';

/** Scalar's defaults that reach the network, each switched off; the build test checks every one. */
export const OFFLINE_SWITCHES = {
  // The Inter and JetBrains Mono fonts from fonts.scalar.com: the page uses the system's fonts.
  withDefaultFonts: false,
  // Page-view events to Scalar's analytics.
  telemetry: false,
  // The "Ask AI" agent, which talks to Scalar's servers.
  agent: { disabled: true },
  // The developer toolbar (shown on localhost by default), whose actions upload the document.
  showDeveloperTools: 'never',
  // No request proxy: requests go from the browser straight to the chosen server.
  proxyUrl: '',
} as const;

/** The security scheme the console fills: the bundle's apiKey scheme sent in a header. */
function apiKeyScheme(bundle: OpenApiDocument): string {
  const schemes = Object.entries(bundle.components?.securitySchemes ?? {});
  const found = schemes.find(([, scheme]) => 'type' in scheme && scheme.type === 'apiKey' && scheme.in === 'header');
  if (!found) throw new Error('The bundle has no apiKey security scheme sent in a header');
  return found[0];
}

/** The demo key of the contract's first server (`x-svc-demo-api-key`). */
export function demoApiKey(bundle: OpenApiDocument): string {
  const key = (bundle.servers?.[0] as { 'x-svc-demo-api-key'?: unknown } | undefined)?.['x-svc-demo-api-key'];
  if (typeof key !== 'string' || key === '') throw new Error("The contract's first server has no x-svc-demo-api-key");
  return key;
}

/** The header value that carries `key`, checked with the reader every server of this repository uses. */
export function authorizationValue(key: string): string {
  const value = `Api-Key ${key}`;
  if (apiKeyOf(value) !== key) throw new Error(`"${value}" does not carry the key as the servers read it`);
  return value;
}

/** Scalar's configuration, as JSON (the page adds the servers it can tell at run time). */
export function consoleConfiguration(bundle: OpenApiDocument, specUrl: string): Record<string, unknown> {
  const scheme = apiKeyScheme(bundle);
  return {
    url: specUrl,
    title: bundle.info.title,
    ...OFFLINE_SWITCHES,
    // The key is the reader's to change; it is not stored in the browser.
    persistAuth: false,
    authentication: {
      preferredSecurityScheme: scheme,
      securitySchemes: { [scheme]: { value: authorizationValue(demoApiKey(bundle)) } },
    },
    servers: bundle.servers ?? [],
    defaultHttpClient: { targetKey: 'shell', clientKey: 'curl' },
    documentDownloadType: 'json',
    hideDarkModeToggle: true,
  };
}
