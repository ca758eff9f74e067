// The guides are generated from the bundle: every fact they promise to show is checked against
// the bundle itself, so a change to the contract can never leave a guide silently stale.
import { STATUS_CODES } from 'node:http';
import { createSandbox } from '@svc/sandbox';
import { readUnspecifiedOperations } from '@svc/spec-runtime/facts';
import { REQUESTS_PATH } from '@svc/spec-runtime/sandbox-config';
import { readLimits } from '@svc/spec-runtime/walk';
import { describe, expect, it } from 'vitest';
import { codesOfResponse, errorCatalogue } from '../src/error-catalogue.js';
import { requirementText } from '../src/guides/authentication.js';
import { requireSection, splitDescription } from '../src/guides/description-sections.js';
import { buildGuides, type Guide } from '../src/guides/index.js';
import { loadBundle } from '../src/load-bundle.js';
import { oneLine } from '../src/markdown.js';
import { collectMarkers } from '../src/markers.js';
import { asJson, listOperations, operationLabel, resolve } from '../src/openapi.js';

const bundle = loadBundle();
const guides = buildGuides(bundle);

function guide(id: string): Guide {
  const found = guides.find((candidate) => candidate.id === id);
  if (!found) throw new Error(`no guide ${id}`);
  return found;
}

/** The `## ` sections of a guide's Markdown, by heading. */
function sections(markdown: string): Map<string, string> {
  return splitDescription(markdown).sections;
}

describe('guides', () => {
  it('are the ten the docs promise, each with a body', () => {
    expect(guides.map((candidate) => candidate.id)).toEqual([
      'authentication',
      'errors',
      'rate-limits',
      'idempotency',
      'pagination',
      'phone-numbers',
      'request-ids',
      'versioning',
      'webhooks',
      'not-yet-specified',
    ]);
    for (const candidate of guides) expect(candidate.markdown.length, candidate.id).toBeGreaterThan(200);
  });

  it('authentication: every scope with what it grants, every operation with its scope ("either" for alternatives)', () => {
    const { markdown } = guide('authentication');
    const scopes = resolve(bundle, bundle.components?.securitySchemes?.ApiKey)?.['x-svc-scopes'] as Record<
      string,
      string
    >;
    for (const [scope, grants] of Object.entries(scopes)) expect(markdown).toContain(`| \`${scope}\` | ${grants} |`);
    for (const entry of listOperations(bundle)) {
      const requirements = entry.operation.security ?? bundle.security ?? [];
      expect(markdown).toContain(
        `| \`${operationLabel(entry)}\` | ${entry.operation.summary} | ${requirementText(requirements)} |`,
      );
      if (requirements.length > 1) expect(requirementText(requirements)).toMatch(/^either `\w+` or `\w+`$/);
    }
  });

  it('errors: the whole catalogue, each code its own section under its status, with its type and meaning', () => {
    const byStatus = sections(guide('errors').markdown);
    for (const entry of errorCatalogue(bundle)) {
      // Each status's section is headed by the status and its reason phrase (`404 Not Found`).
      const heading = `${entry.status} ${STATUS_CODES[entry.status]}`;
      expect([...byStatus.keys()], `section for ${entry.status}`).toContain(heading);
      expect(byStatus.get(heading!)).toContain(`### ${entry.code}\n\n\`${entry.type}\` · HTTP ${entry.status} · `);
      expect(byStatus.get(heading!)).toContain(oneLine(entry.description));
      if (entry.suggestion) expect(byStatus.get(heading!)).toContain(oneLine(entry.suggestion));
    }
    const apiWide = byStatus.get('API-wide rules') ?? '';
    // The tables elsewhere link each code to its section.
    for (const entry of errorCatalogue(bundle).filter((candidate) => candidate.apiWide)) {
      expect(apiWide).toContain(`[\`${entry.code}\`](#/guide-errors/${entry.code.toLowerCase()})`);
    }
  });

  it('errors: the error body lists every field of ApiError through its allOf, code typed as the catalogue', () => {
    const { markdown } = guide('errors');
    for (const field of ['type', 'code', 'message', 'retryable', 'request_id', 'retry_after_seconds']) {
      expect(markdown).toContain(`| \`${field}\` |`);
    }
    expect(markdown).toMatch(/\| `code` \| ErrorCode \| yes \|/);
    expect(markdown).toMatch(/\| `type` \| ErrorType \| yes \|/);
  });

  it('errors: says how to look a request up in the sandbox, by the route the sandbox serves', async () => {
    const lookup = sections(guide('errors').markdown).get('Looking a request up in the sandbox') ?? '';
    expect(lookup).toContain(`GET ${REQUESTS_PATH}/<request_id>`);
    expect(lookup).toContain('svc-sandbox logs tail');
    // The route the guide names answers a request id the sandbox gave.
    const sandbox = createSandbox();
    const auth = { Authorization: 'Api-Key sbx_demo_full_access' };
    const failed = await sandbox.fetch(new Request('http://sandbox/v2/api/threads/cth-none', { headers: auth }));
    const id = failed.headers.get('x-request-id');
    const found = await sandbox.fetch(new Request(`http://sandbox${REQUESTS_PATH}/${id}`, { headers: auth }));
    expect([found.status, ((await found.json()) as { data: { request_id: string } }).data.request_id]).toEqual([
      200,
      id,
    ]);
  });

  it('reads the codes of a response from its named error, inside its allOf', () => {
    expect(codesOfResponse(bundle, { $ref: '#/components/responses/IdempotencyConflict' })).toEqual([
      'IDEMPOTENCY_KEY_REUSE',
      'OTHER_TRANSACTION_IN_PROGRESS',
    ]);
    const getThread = bundle.paths?.['/v2/api/threads/{id}']?.get;
    expect(codesOfResponse(bundle, getThread!.responses!['404']!)).toEqual(['THREAD_NOT_FOUND']);
  });

  it('rate limits: the budgets and every other limit come from info.x-svc-limits', () => {
    const { markdown } = guide('rate-limits');
    const limits = readLimits(asJson(bundle));
    expect(markdown).toContain(`| reads | ${limits.readMethods.join(', ')} | ${limits.readRequestsPerSecond} |`);
    expect(markdown).toContain(`| writes | ${limits.writeMethods.join(', ')} | ${limits.writeRequestsPerSecond} |`);
    for (const [key, value] of Object.entries(limits.raw)) {
      if (key.startsWith('x-') || Array.isArray(value) || key.endsWith('_per_second')) continue;
      expect(markdown).toContain(`| \`${key}\` | ${String(value).replace(/\|/g, '\\|')} |`);
    }
  });

  it("idempotency and request ids reuse the contract's own prose", () => {
    const description = splitDescription(bundle.info.description);
    expect(guide('idempotency').markdown).toContain(requireSection(description, 'Idempotency'));
    expect(guide('request-ids').markdown).toContain(requireSection(description, 'Request ids'));
    expect(guide('versioning').markdown).toContain(requireSection(description, 'Versioning'));
  });

  it('idempotency lists exactly the operations that take an Idempotency-Key', () => {
    const { markdown } = guide('idempotency');
    const table = sections(markdown).get('Operations that take an Idempotency-Key') ?? '';
    for (const entry of listOperations(bundle)) {
      const takesKey = JSON.stringify(entry.operation.parameters ?? []).includes('IdempotencyKeyParameter');
      expect(table.includes(`\`${operationLabel(entry)}\``), operationLabel(entry)).toBe(takesKey);
    }
  });

  it('phone numbers: every parameter carrying one is shown with its + as %2B', () => {
    const { markdown } = guide('phone-numbers');
    expect(markdown).toContain('`contact_number`');
    expect(markdown).toMatch(/`%2B\d+`/);
  });

  it('webhooks: every event of the contract, with its payload fields', () => {
    const { markdown } = guide('webhooks');
    for (const [name, item] of Object.entries(bundle.webhooks ?? {})) {
      expect(markdown).toContain(`## ${name}`);
      expect(markdown).toContain(item.post?.summary);
    }
    expect(markdown).toContain('`recording_url`');
  });

  it('not yet specified: every unspecified operation and every marker, with its location and text', () => {
    const { markdown } = guide('not-yet-specified');
    for (const item of readUnspecifiedOperations(asJson(bundle))) expect(markdown).toContain(`**${item.name}**`);
    for (const marker of collectMarkers(bundle))
      expect(markdown).toContain(
        `**${marker.location}**${marker.aspect ? ` (${marker.aspect})` : ''}: ${oneLine(marker.text)}`,
      );
  });
});

describe('info.description sections', () => {
  it('splits at `## ` headings, keeping the introduction and ignoring fenced code', () => {
    const split = splitDescription('Intro.\n\n## One\n\nA\n\n```md\n## not a heading\n```\n\n## Two\nB');
    expect(split.intro).toBe('Intro.');
    expect([...split.sections.keys()]).toEqual(['One', 'Two']);
    expect(split.sections.get('One')).toContain('## not a heading');
    expect(() => requireSection(split, 'Three')).toThrow(/no "## Three" section/);
  });
});
