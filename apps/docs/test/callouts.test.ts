import { describe, expect, it } from 'vitest';
import { addMarkerCallouts, CALLOUT_LEADS, callout } from '../src/callouts.js';
import { localSandboxServer, makeDocsSpec } from '../src/docs-spec.js';
import { loadBundle } from '../src/load-bundle.js';
import { collectMarkers } from '../src/markers.js';
import { REDOC_OPTIONS } from '../src/redoc.js';

const bundle = loadBundle();

describe('honesty markers as callouts', () => {
  it('writes a readable lead, never the extension name', () => {
    expect(callout('x-svc-unspecified', 'The separator is not shown.')).toBe(
      '> **Not specified by the API description:** The separator is not shown.',
    );
    expect(callout('x-svc-ambiguity', { scope: 'Two scopes are named.' })).toBe(
      '> **Ambiguous in the API description:** scope: Two scopes are named.',
    );
    expect(callout('x-svc-inferred', [])).toBe('');
  });

  it('puts every rendered marker of the contract into the description beside it', () => {
    const { spec } = makeDocsSpec(bundle);
    const text = JSON.stringify(spec);
    const rendered = collectMarkers(bundle).filter(
      (marker) => !marker.pointer.includes('/x-svc-') && marker.area !== 'limits',
    );
    expect(rendered.length).toBeGreaterThan(10);
    for (const marker of rendered)
      expect(text, marker.location).toContain(JSON.stringify(marker.text.replace(/\s*\n\s*/g, ' ')).slice(1, 40));
    for (const lead of Object.values(CALLOUT_LEADS)) expect(text).toContain(`> **${lead}:**`);
    // Redoc no longer prints the raw extensions.
    expect(REDOC_OPTIONS.showExtensions).toBe(false);
  });

  it('leaves a $ref sibling alone and appends to an existing description', () => {
    const node = {
      a: { description: 'Text.', 'x-svc-inferred': 'A name.' },
      b: { $ref: '#/x', 'x-svc-unspecified': 'n' },
    };
    addMarkerCallouts(node);
    expect(node.a.description).toBe('Text.\n\n> **Inferred (the API description does not name it):** A name.');
    expect(node.b).not.toHaveProperty('description');
  });

  it('offers the local sandbox first in the servers panel', () => {
    const { spec } = makeDocsSpec(bundle);
    expect(spec.servers?.[0]).toEqual(localSandboxServer(bundle));
    expect(spec.servers?.[0]?.url).toBe('http://localhost:4010');
    // The demo key it names is the contract's own (x-svc-demo-api-key), never typed here.
    const declared = ((bundle.servers?.[0] ?? {}) as { 'x-svc-demo-api-key'?: string })['x-svc-demo-api-key'];
    expect(declared).toMatch(/^sbx_/);
    expect(spec.servers?.[0]?.description).toContain(`demo key ${declared})`);
    expect(spec.servers?.slice(1)).toEqual(bundle.servers);
  });
});
