// The built console (after `build`): every switch that keeps Scalar from calling out set in the
// page, the demo key of the contract's first server filled in as the servers read it, the
// script served from the docs' folder, the examples pre-filled, and the first-load weight.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { apiKeyOf } from '@svc/spec-runtime';
import { headerNamesOf } from '@svc/spec-runtime/walk';
import { describe, expect, it } from 'vitest';
import { sampleRequestFor } from '../src/code-samples.js';
import { scalarStandalonePath } from '../src/console/build-console.js';
import { demoApiKey, OFFLINE_SWITCHES } from '../src/console/configuration.js';
import { makeConsoleSpec } from '../src/console/console-spec.js';
import { consoleHref } from '../src/console/links.js';
import { CONSOLE_PAGE, CONSOLE_SCRIPT, CONSOLE_SPEC } from '../src/console/page.js';
import { loadBundle } from '../src/load-bundle.js';
import { findExternalLoads } from '../src/offline-check.js';
import { asJson, listOperations, type Parameter } from '../src/openapi.js';
import { DIST_DIR } from '../src/paths.js';
import { FIRST_LOAD_BUDGET_BYTES, firstLoadWeight } from '../src/weight.js';

const bundle = loadBundle();
const html = readFileSync(join(DIST_DIR, CONSOLE_PAGE), 'utf8');

/** The configuration the page hands Scalar, as written in the page. */
function builtConfiguration(): Record<string, unknown> {
  const match = /var configuration = (\{.*\});\n/.exec(html);
  if (!match) throw new Error(`${CONSOLE_PAGE} has no configuration`);
  return JSON.parse(match[1]!) as Record<string, unknown>;
}

describe('the built console', () => {
  const configuration = builtConfiguration();

  it.each(Object.entries(OFFLINE_SWITCHES))('was built with %s: %j', (name, value) => {
    expect(configuration[name]).toEqual(value);
  });

  it('switches off the defaults known to call out: fonts, telemetry, the agent, developer tools, a proxy', () => {
    expect(configuration).toMatchObject({
      withDefaultFonts: false,
      telemetry: false,
      agent: { disabled: true },
      showDeveloperTools: 'never',
      proxyUrl: '',
      persistAuth: false,
    });
    expect(configuration).not.toHaveProperty('proxy');
  });

  it("fills in the demo key of the contract's first server, as the servers read an Authorization header", () => {
    const key = (bundle.servers?.[0] as unknown as Record<string, unknown> | undefined)?.['x-svc-demo-api-key'];
    expect(demoApiKey(bundle)).toBe(key);
    const auth = configuration.authentication as {
      preferredSecurityScheme: string;
      securitySchemes: Record<string, { value: string }>;
    };
    expect(Object.keys(bundle.components?.securitySchemes ?? {})).toContain(auth.preferredSecurityScheme);
    expect(apiKeyOf(auth.securitySchemes[auth.preferredSecurityScheme]!.value)).toBe(key);
  });

  it('loads nothing from the network: its script and its copy of the bundle come from the docs folder', () => {
    expect(findExternalLoads(html)).toEqual([]);
    expect(html).toContain(`<script src="${CONSOLE_SCRIPT}"></script>`);
    expect(configuration.url).toBe(CONSOLE_SPEC);
    expect(readFileSync(join(DIST_DIR, CONSOLE_SCRIPT)).equals(readFileSync(scalarStandalonePath()))).toBe(true);
  });

  it('offers the contract servers after the ones the page can tell (a ?server= origin, the sandbox serving it)', () => {
    expect(configuration.servers).toEqual(bundle.servers);
  });

  it('keeps the reference and the first load within the budget', () => {
    const weight = firstLoadWeight(DIST_DIR);
    expect(weight.pages.map((page) => page.page)).toEqual(['index.html', CONSOLE_PAGE]);
    expect(weight.totalBytes).toBeLessThanOrEqual(FIRST_LOAD_BUDGET_BYTES);
  });
});

describe("the console's copy of the bundle", () => {
  const spec = makeConsoleSpec(bundle);
  const built = JSON.parse(readFileSync(join(DIST_DIR, CONSOLE_SPEC), 'utf8')) as unknown;
  const { idempotencyKey } = headerNamesOf(asJson(bundle));
  const originals = listOperations(bundle);

  it('is what the build wrote', () => {
    expect(built).toEqual(JSON.parse(JSON.stringify(spec)));
  });

  it.each(listOperations(spec).map((entry, index) => ({ id: entry.operation.operationId, entry, index })))(
    '$id: path and query parameters and the body pre-filled with the values the samples send',
    ({ entry, index }) => {
      const sample = sampleRequestFor(bundle, originals[index]!);
      const parameters = (entry.operation.parameters ?? []) as Parameter[];
      for (const [name, value] of Object.entries({ ...sample.pathParams, ...sample.queryParams }))
        expect(parameters.find((parameter) => parameter.name === name)?.example, name).toEqual(value);
      const key = parameters.find((parameter) => parameter.name === idempotencyKey);
      if (key) expect(key.example ?? key.examples).toBeUndefined();
      const content = (entry.operation.requestBody as { content?: Record<string, { examples?: object }> } | undefined)
        ?.content?.['application/json'];
      if (sample.body) expect(Object.values(content?.examples ?? {})[0]).toMatchObject({ value: sample.body.value });
      expect(consoleHref(entry)).toMatch(new RegExp(`^${CONSOLE_PAGE}#tag/[a-z0-9-]+/${entry.method.toUpperCase()}/`));
    },
  );

  it('leaves the bundle untouched', () => {
    expect(bundle).toEqual(loadBundle());
  });
});
