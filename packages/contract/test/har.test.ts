// `--reporter har` (issue 38): the run's exchanges as HAR 1.2, valid against the HAR 1.2 JSON
// schema of `har-schema` (draft-06, validated by Ajv), one entry per request the run sent, and no
// key anywhere: the run's key is its ${SVC_API_KEY} placeholder, as in every report.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { afterAll, expect, it } from 'vitest';
import { parseCli } from '../src/options.js';
import { renderHar } from '../src/report/har.js';
import { runContract } from '../src/run.js';
import { UsageError } from '../src/tool.js';
import { sandbox } from './support/servers.js';

const require = createRequire(import.meta.url);
const output = mkdtempSync(join(tmpdir(), 'svc-contract-har-'));
afterAll(() => rmSync(output, { recursive: true, force: true }));

/** The HAR 1.2 validator, from har-schema's files (each its own $id, referring to the others). */
function harValidator() {
  const schemas = require('har-schema') as Record<string, { $id: string }>;
  const ajv = new Ajv({ allErrors: false, strict: false });
  ajv.addMetaSchema(require('ajv/dist/refs/json-schema-draft-06.json'));
  for (const schema of Object.values(schemas)) ajv.addSchema(schema);
  return ajv.getSchema('har.json#')!;
}

it('writes every exchange of a run as HAR 1.2, keys redacted', async () => {
  const upstream = await sandbox();
  try {
    const result = await runContract({
      baseUrl: upstream.url,
      apiKey: upstream.apiKey,
      config: upstream.config,
      only: ['tags'],
      rate: 'off',
      quiet: true,
      print: false,
      reporters: ['har'],
      output,
    });
    const text = readFileSync(join(output, 'report.har'), 'utf8');
    expect(text).not.toContain(upstream.apiKey);
    // Config keys stand as their placeholders (here named after the demo keys themselves), never sent as they are.
    for (const key of upstream.config.keys) expect(text).not.toContain(`Api-Key ${key.key}"`);
    const har = JSON.parse(text);
    const validate = harValidator();
    expect(validate(har), JSON.stringify(validate.errors)).toBe(true);
    expect(har.log.version).toBe('1.2');
    expect(har.log.entries).toHaveLength(result.report.requests);
    const tags = har.log.entries.find((e: { request: { url: string } }) => e.request.url.endsWith('/v2/api/tags'));
    expect(tags.request.headers).toContainEqual({ name: 'Authorization', value: 'Api-Key ${SVC_API_KEY}' });
    expect(tags.response.status).toBe(200);
    expect(JSON.parse(tags.response.content.text)).toHaveProperty('data');
  } finally {
    await upstream.close();
  }
}, 120_000);

it('validates a transport failure and a body-carrying request too, and the schema refuses a broken HAR', () => {
  const validate = harValidator();
  const har = JSON.parse(
    renderHar(
      [
        {
          seq: 1,
          operationId: null,
          method: 'GET',
          url: 'http://h/x?a=1',
          headers: {},
          error: 'timed out',
          durationMs: 5,
        },
        {
          seq: 2,
          operationId: 'createThread',
          method: 'POST',
          url: 'http://h/v2/api/threads',
          headers: { 'content-type': 'application/json' },
          body: '{"a":1}',
          status: 201,
          responseHeaders: { 'content-type': 'application/json' },
          responseBody: '{}',
          durationMs: 3,
          startedAt: '2026-01-01T00:00:00.000Z',
        },
      ],
      { name: 'svc-contract', version: '0' },
      '2026-01-01T00:00:00.000Z',
    ),
  );
  expect(validate(har), JSON.stringify(validate.errors)).toBe(true);
  expect(har.log.entries[0].comment).toContain('no answer: timed out');
  expect(har.log.entries[0].request.queryString).toEqual([{ name: 'a', value: '1' }]);
  expect(har.log.entries[1].request.postData).toMatchObject({ mimeType: 'application/json', text: '{"a":1}' });
  delete har.log.entries[1].response.status;
  expect(validate(har)).toBe(false);
});

it('is a reporter of a run only: the proxy and the merge refuse it', () => {
  expect(() => parseCli(['proxy', '--upstream', 'http://127.0.0.1:1', '--reporter', 'har'])).toThrow(UsageError);
  expect(() => parseCli(['merge', 'dir', '--reporter', 'har'])).toThrow(UsageError);
  expect(parseCli(['--reporter', 'har,json'])).toMatchObject({ kind: 'run', options: { reporters: ['har', 'json'] } });
});
