// Tests of the Spectral ruleset (spec/lint/ruleset.yaml), in the "one valid base, one mutation per
// rule" style: fixtures/base.yaml passes the whole ruleset with zero results; each test deep-clones
// it, breaks exactly one thing, lints it with the whole ruleset and asserts the rule's code and the
// path it is reported at. The ruleset is bundled and loaded once, the way the CLI loads it.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';

const require = createRequire(import.meta.url);
const { Spectral, Document } = require('@stoplight/spectral-core');
const Parsers = require('@stoplight/spectral-parsers');
const { bundleAndLoadRuleset } = require('@stoplight/spectral-ruleset-bundler/with-loader');
const resolver = require('../resolver.cjs');

type Json = any; // fixtures are plain parsed YAML
interface Finding {
  code: string;
  path: string[];
  message: string;
  source?: string;
}

const here = path.dirname(fileURLToPath(import.meta.url));
const rulesetFile = path.resolve(here, '../ruleset.yaml');
const baseFile = path.join(here, 'fixtures', 'base.yaml');
const base: Json = YAML.parse(fs.readFileSync(baseFile, 'utf8'));

const HOUSE_RULES = [
  'svc-operation-id-camel-case',
  'svc-operation-summary',
  'svc-operation-single-tag',
  'svc-operation-scoped-security',
  'svc-standard-error-responses',
  'svc-no-default-response',
  'svc-error-response-shape',
  'svc-error-examples-match',
  'svc-write-idempotency-key',
  'svc-body-errors',
  'svc-response-headers',
  'svc-request-id-parameter',
  'svc-list-pagination',
  'svc-phone-fields-e164',
  'svc-prefixed-id-fields',
  'svc-snake-case-properties',
  'svc-enum-upper-snake',
  'svc-paths-v2-prefix',
  'svc-root-refs-only',
  'svc-error-code-extension',
  'svc-marker-text',
  'svc-openapi-schema',
  'svc-valid-examples',
  'svc-fully-resolved',
];

let spectral: any; // with lint/resolver.cjs, as the CLI should run
let ruleset: any;
let baseResults: Finding[];

const toFindings = (results: any[]): Finding[] =>
  results.map((r) => ({ code: String(r.code), path: r.path.map(String), message: r.message, source: r.source }));

async function lint(doc: Json, source = baseFile): Promise<Finding[]> {
  return toFindings(await spectral.run(new Document(JSON.stringify(doc, null, 2), Parsers.Json, source)));
}

async function lintFile(file: string, instance = spectral): Promise<Finding[]> {
  return toFindings(await instance.run(new Document(fs.readFileSync(file, 'utf8'), Parsers.Yaml, file)));
}

function mutate(change: (doc: Json) => void): Json {
  const doc = structuredClone(base);
  change(doc);
  return doc;
}

const show = (fs_: Finding[]) => fs_.map((f) => `${f.code} @ ${f.path.join('.')}: ${f.message}`).join('\n');

/** Asserts that `code` is reported at exactly `at`, and returns the matching findings. */
function expectReported(findings: Finding[], code: string, at: (string | number)[], message?: RegExp): Finding[] {
  const want = at.map(String);
  const hits = findings.filter((f) => f.code === code && f.path.join('\u0000') === want.join('\u0000'));
  expect(hits.length, `expected ${code} at ${want.join('.')}; got:\n${show(findings)}`).toBeGreaterThan(0);
  if (message !== undefined) {
    expect(
      hits.some((h) => message.test(h.message)),
      `no ${code} message matches ${message}; got:\n${show(hits)}`,
    ).toBe(true);
  }
  return hits;
}

function expectSilent(findings: Finding[], code: string): void {
  expect(
    findings.filter((f) => f.code === code),
    show(findings),
  ).toEqual([]);
}

// Paths inside the fixture (results point into the file where the node is written).
const GET = ['components', 'pathItems', 'Notes', 'get'];
const POST = ['components', 'pathItems', 'Notes', 'post'];
const WEBHOOK = ['components', 'pathItems', 'NoteCreatedWebhook', 'post'];
const SCHEMAS = ['components', 'schemas'];
const JSON_BODY = ['content', 'application/json'];
const ERROR_PROPS = ['schema', 'properties', 'error', 'allOf', 1, 'properties'];
const getOp = (d: Json) => d.components.pathItems.Notes.get;
const postOp = (d: Json) => d.components.pathItems.Notes.post;
const removeParam = (op: Json, ref: string) => {
  op.parameters = op.parameters.filter((p: Json) => p.$ref !== `#/components/parameters/${ref}`);
};
const removeCode = (response: Json, code: string) => {
  const media = response.content['application/json'];
  const e = media.schema.properties.error.allOf[1].properties.code;
  e.enum = e.enum.filter((c: string) => c !== code);
  delete media.examples[code];
};

/** An id schema that is one of several prefixed ids (x-svc-id-prefix lists them), as an anyOf of refs. */
const anyOfIds = (prefixes: string[], refs: string[]): Json => ({
  title: 'NoteAuthorOrNoteId',
  description: 'A user id or a note id.',
  'x-svc-id-prefix': prefixes,
  anyOf: refs.map((r) => ({ $ref: `#/components/schemas/${r}` })),
});

beforeAll(async () => {
  ruleset = await bundleAndLoadRuleset(rulesetFile, { fs, fetch: globalThis.fetch });
  spectral = new Spectral({ resolver });
  spectral.setRuleset(ruleset);
  baseResults = await lint(base);
});

describe('the base fixture', () => {
  it('passes the whole ruleset with zero results', () => {
    expect(baseResults, show(baseResults)).toEqual([]);
  });

  it('loads every house rule, each an error', () => {
    for (const name of HOUSE_RULES) {
      expect(ruleset.rules[name]?.severity, `${name} (undefined: not loaded)`).toBe(0);
    }
  });

  it.each(HOUSE_RULES)('%s is silent on the base', (name) => {
    expectSilent(baseResults, name);
  });
});

describe('operations', () => {
  it('svc-operation-id-camel-case: an operationId that is not camelCase', async () => {
    const r = await lint(mutate((d) => (getOp(d).operationId = 'List_notes')));
    expectReported(r, 'svc-operation-id-camel-case', [...GET, 'operationId'], /operationId.*must match pattern/);
  });

  it('svc-operation-id-camel-case: a webhook operation without operationId', async () => {
    const r = await lint(mutate((d) => delete d.components.pathItems.NoteCreatedWebhook.post.operationId));
    expectReported(r, 'svc-operation-id-camel-case', WEBHOOK, /required property "operationId"/);
  });

  it('svc-operation-summary: a blank summary', async () => {
    const r = await lint(mutate((d) => (postOp(d).summary = '   ')));
    expectReported(r, 'svc-operation-summary', [...POST, 'summary'], /summary.*must match pattern/);
  });

  it('svc-operation-single-tag: two tags', async () => {
    const r = await lint(mutate((d) => (getOp(d).tags = ['Notes', 'Webhooks'])));
    expectReported(r, 'svc-operation-single-tag', [...GET, 'tags'], /exactly one tag; it has 2/);
  });

  it('svc-operation-single-tag: a tag not declared in the root tags', async () => {
    const r = await lint(mutate((d) => (getOp(d).tags = ['Memos'])));
    expectReported(r, 'svc-operation-single-tag', [...GET, 'tags', 0], /'Memos'/);
  });

  it('svc-operation-scoped-security: no operation-level security', async () => {
    const r = await lint(mutate((d) => delete postOp(d).security));
    expectReported(r, 'svc-operation-scoped-security', POST, /createNote/);
  });

  it('svc-operation-scoped-security: a scope that is not in x-svc-scopes', async () => {
    const r = await lint(mutate((d) => (postOp(d).security = [{ ApiKey: ['NOTES_ADMIN'] }])));
    expectReported(r, 'svc-operation-scoped-security', [...POST, 'security', 0, 'ApiKey', 0], /'NOTES_ADMIN'/);
  });

  it('svc-operation-scoped-security: ApiKey without a scope', async () => {
    const r = await lint(mutate((d) => (getOp(d).security = [{ ApiKey: [] }])));
    expectReported(r, 'svc-operation-scoped-security', [...GET, 'security', 0, 'ApiKey'], /without a scope/);
  });

  it('svc-operation-scoped-security: scopes are read from the scheme (a scope removed from x-svc-scopes)', async () => {
    const r = await lint(mutate((d) => delete d.components.securitySchemes.ApiKey['x-svc-scopes'].NOTES_READ));
    expectReported(r, 'svc-operation-scoped-security', [...GET, 'security', 0, 'ApiKey', 0], /'NOTES_READ'/);
  });

  it('svc-request-id-parameter: no X-Request-Id parameter', async () => {
    const r = await lint(mutate((d) => removeParam(getOp(d), 'RequestIdParameter')));
    expectReported(r, 'svc-request-id-parameter', [...GET, 'parameters'], /listNotes.*X-Request-Id/);
  });

  it('svc-write-idempotency-key: a write without the Idempotency-Key parameter', async () => {
    const r = await lint(mutate((d) => removeParam(postOp(d), 'IdempotencyKeyParameter')));
    expectReported(r, 'svc-write-idempotency-key', [...POST, 'parameters'], /createNote.*Idempotency-Key/);
  });

  it('svc-write-idempotency-key: a write without 409', async () => {
    const r = await lint(mutate((d) => delete postOp(d).responses['409']));
    expectReported(r, 'svc-write-idempotency-key', [...POST, 'responses'], /does not document 409/);
  });

  it('svc-write-idempotency-key: a 409 that does not list OTHER_TRANSACTION_IN_PROGRESS', async () => {
    const r = await lint(
      mutate((d) => {
        const conflict = structuredClone(d.components.responses.IdempotencyConflict);
        removeCode(conflict, 'OTHER_TRANSACTION_IN_PROGRESS');
        postOp(d).responses['409'] = conflict;
      }),
    );
    expectReported(r, 'svc-write-idempotency-key', [...POST, 'responses', '409'], /OTHER_TRANSACTION_IN_PROGRESS/);
  });

  // The description promises the key on POST, PUT and DELETE; a PATCH takes it with replay marked as not promised.
  const asPatch = (d: Json) => {
    d.components.pathItems.Notes.patch = postOp(d);
    delete d.components.pathItems.Notes.post;
  };
  const unpromisedKey = (d: Json) => ({
    ...d.components.parameters.IdempotencyKeyParameter,
    'x-svc-inferred': { replay: 'Replay is not promised on PATCH.' },
  });
  const keyIndex = (op: Json) =>
    op.parameters.findIndex((p: Json) => p.$ref === '#/components/parameters/IdempotencyKeyParameter');

  it('svc-write-idempotency-key: a PATCH whose Idempotency-Key does not say replay is not promised', async () => {
    // Reported where the parameter is written (Spectral maps the path through the $ref).
    const r = await lint(mutate(asPatch));
    expectReported(
      r,
      'svc-write-idempotency-key',
      ['components', 'parameters', 'IdempotencyKeyParameter'],
      /createNote.*PATCH.*x-svc-inferred\.replay/,
    );
  });

  it('svc-write-idempotency-key: a PATCH whose Idempotency-Key says replay is not promised passes', async () => {
    const r = await lint(
      mutate((d) => {
        d.components.parameters.PatchIdempotencyKeyParameter = unpromisedKey(d);
        asPatch(d);
        const op = d.components.pathItems.Notes.patch;
        op.parameters[keyIndex(op)] = { $ref: '#/components/parameters/PatchIdempotencyKeyParameter' };
      }),
    );
    expectSilent(r, 'svc-write-idempotency-key');
  });

  it('svc-write-idempotency-key: a POST whose Idempotency-Key says replay is not promised', async () => {
    const r = await lint(mutate((d) => (d.components.parameters.IdempotencyKeyParameter = unpromisedKey(d))));
    expectReported(
      r,
      'svc-write-idempotency-key',
      ['components', 'parameters', 'IdempotencyKeyParameter'],
      /createNote.*promises idempotency on POST/,
    );
  });

  it('svc-list-pagination: a paged list without the size parameter', async () => {
    const r = await lint(mutate((d) => removeParam(getOp(d), 'SizeParameter')));
    expectReported(r, 'svc-list-pagination', [...GET, 'parameters'], /does not take the query parameter\(s\) size/);
  });

  it('svc-list-pagination: an operation taking page whose 200 has no required pagination', async () => {
    const r = await lint(mutate((d) => (d.components.schemas.NoteListResponse.required = ['data'])));
    expectReported(r, 'svc-list-pagination', [...GET, 'responses', '200'], /takes the query parameter page/);
  });
});

describe('responses', () => {
  it('svc-standard-error-responses: 429 missing', async () => {
    const r = await lint(mutate((d) => delete getOp(d).responses['429']));
    expectReported(r, 'svc-standard-error-responses', [...GET, 'responses'], /required property "429"/);
  });

  it('svc-standard-error-responses: 405 missing', async () => {
    const r = await lint(mutate((d) => delete getOp(d).responses['405']));
    expectReported(r, 'svc-standard-error-responses', [...GET, 'responses'], /required property "405"/);
  });

  it('svc-no-default-response: a default response', async () => {
    const r = await lint(
      mutate((d) => (getOp(d).responses.default = structuredClone(d.components.responses.InternalServerError))),
    );
    expectReported(r, 'svc-no-default-response', [...GET, 'responses', 'default']);
  });

  it('svc-error-response-shape: a code whose catalogue status is another status', async () => {
    const r = await lint(
      mutate((d) =>
        getOp(d).responses['400'].content[
          'application/json'
        ].schema.properties.error.allOf[1].properties.code.enum.push('NOTE_NOT_FOUND'),
      ),
    );
    expectReported(
      r,
      'svc-error-response-shape',
      [...GET, 'responses', '400', ...JSON_BODY, ...ERROR_PROPS, 'code', 'enum', 2],
      /NOTE_NOT_FOUND, whose catalogue status is 404/,
    );
  });

  it('svc-error-response-shape: a code that is not in the catalogue (read from the document)', async () => {
    const r = await lint(
      mutate((d) => {
        const catalogue = d.components.schemas.ErrorCode;
        catalogue.enum = catalogue.enum.filter((c: string) => c !== 'INVALID_PAGE_SIZE');
        delete catalogue['x-svc-codes'].INVALID_PAGE_SIZE;
      }),
    );
    expectReported(
      r,
      'svc-error-response-shape',
      [...GET, 'responses', '400', ...JSON_BODY, ...ERROR_PROPS, 'code', 'enum', 0],
      /INVALID_PAGE_SIZE, which is not in the error catalogue/,
    );
  });

  it('svc-error-response-shape: a type const that is not the codes\u2019 type', async () => {
    const r = await lint(
      mutate((d) => {
        const media = getOp(d).responses['400'].content['application/json'];
        media.schema.properties.error.allOf[1].properties.type.const = 'not_found_error';
        for (const ex of Object.values<Json>(media.examples)) ex.value.error.type = 'not_found_error';
      }),
    );
    expectReported(
      r,
      'svc-error-response-shape',
      [...GET, 'responses', '400', ...JSON_BODY, ...ERROR_PROPS, 'type', 'const'],
      /'not_found_error'/,
    );
  });

  it('svc-error-response-shape: an error schema without a required error property', async () => {
    const r = await lint(
      mutate((d) => (getOp(d).responses['400'].content['application/json'].schema = { type: 'object' })),
    );
    expectReported(
      r,
      'svc-error-response-shape',
      [...GET, 'responses', '400', ...JSON_BODY, 'schema'],
      /requires properties.error/,
    );
  });

  it('svc-error-response-shape: a narrowing built on ApiError (generators intersect the catalogue enum with the list: never)', async () => {
    const r = await lint(
      mutate((d) => {
        const error = getOp(d).responses['400'].content['application/json'].schema.properties.error;
        error.allOf[0] = { $ref: '#/components/schemas/ApiError' };
      }),
    );
    expectReported(
      r,
      'svc-error-response-shape',
      [...GET, 'responses', '400', ...JSON_BODY, 'schema'],
      /neither ApiError nor allOf \[ApiErrorFields/,
    );
  });

  it('svc-error-response-shape: a narrowed code that is not a plain string enum', async () => {
    const r = await lint(
      mutate(
        (d) =>
          delete getOp(d).responses['400'].content['application/json'].schema.properties.error.allOf[1].properties.code
            .type,
      ),
    );
    expectReported(
      r,
      'svc-error-response-shape',
      [...GET, 'responses', '400', ...JSON_BODY, 'schema'],
      /not a plain string enum/,
    );
  });

  it('svc-error-response-shape: a shared error response is reported where it is written', async () => {
    const r = await lint(
      mutate(
        (d) =>
          (d.components.responses.Forbidden.content[
            'application/json'
          ].schema.properties.error.allOf[1].properties.type.const = 'validation_error'),
      ),
    );
    expectReported(r, 'svc-error-response-shape', [
      'components',
      'responses',
      'Forbidden',
      ...JSON_BODY,
      ...ERROR_PROPS,
      'type',
      'const',
    ]);
  });

  it('svc-error-examples-match: an example whose code the response does not list', async () => {
    const r = await lint(
      mutate(
        (d) =>
          (getOp(d).responses['400'].content['application/json'].examples.INVALID_PAGE_SIZE.value.error.code =
            'INVALID_REQUEST_BODY'),
      ),
    );
    expectReported(
      r,
      'svc-error-examples-match',
      [...GET, 'responses', '400', ...JSON_BODY, 'examples', 'INVALID_PAGE_SIZE', 'value', 'error', 'code'],
      /"INVALID_REQUEST_BODY"/,
    );
    expectReported(
      r,
      'svc-error-examples-match',
      [...GET, 'responses', '400', ...JSON_BODY, 'examples'],
      /no example for code\(s\) INVALID_PAGE_SIZE/,
    );
  });

  it('svc-error-examples-match: an example whose type is not the const', async () => {
    const r = await lint(
      mutate(
        (d) =>
          (d.components.responses.RateLimited.content[
            'application/json'
          ].examples.RATE_LIMIT_EXCEEDED.value.error.type = 'server_error'),
      ),
    );
    expectReported(
      r,
      'svc-error-examples-match',
      [
        'components',
        'responses',
        'RateLimited',
        ...JSON_BODY,
        'examples',
        'RATE_LIMIT_EXCEEDED',
        'value',
        'error',
        'type',
      ],
      /"server_error", not 'rate_limit_error'/,
    );
  });

  it('svc-body-errors: a body-taking operation without 415', async () => {
    const r = await lint(mutate((d) => delete postOp(d).responses['415']));
    expectReported(r, 'svc-body-errors', [...POST, 'responses'], /does not document 415/);
  });

  it('svc-body-errors: a 400 that does not list INVALID_REQUEST', async () => {
    const r = await lint(mutate((d) => removeCode(postOp(d).responses['400'], 'INVALID_REQUEST')));
    expectReported(
      r,
      'svc-body-errors',
      [...POST, 'responses', '400'],
      /does not list INVALID_REQUEST$|does not list INVALID_REQUEST\./,
    );
  });

  it('svc-response-headers: a response without X-RateLimit-Reset', async () => {
    const r = await lint(mutate((d) => delete getOp(d).responses['200'].headers['X-RateLimit-Reset']));
    expectReported(r, 'svc-response-headers', [...GET, 'responses', '200', 'headers'], /X-RateLimit-Reset/);
  });

  it('svc-response-headers: a write success response without Idempotency-Replayed', async () => {
    const r = await lint(mutate((d) => delete postOp(d).responses['201'].headers['Idempotency-Replayed']));
    expectReported(
      r,
      'svc-response-headers',
      [...POST, 'responses', '201', 'headers'],
      /createNote.*Idempotency-Replayed/,
    );
  });

  it('svc-response-headers: a write error response without Idempotency-Key', async () => {
    const r = await lint(mutate((d) => delete postOp(d).responses['400'].headers['Idempotency-Key']));
    expectReported(r, 'svc-response-headers', [...POST, 'responses', '400', 'headers'], /Idempotency-Key/);
  });
});

describe('schemas', () => {
  it('svc-phone-fields-e164: a phone property without the E.164 pattern', async () => {
    const r = await lint(
      mutate(
        (d) => (d.components.schemas.Note.properties.contact_number = { type: 'string', description: 'The contact.' }),
      ),
    );
    expectReported(
      r,
      'svc-phone-fields-e164',
      [...SCHEMAS, 'Note', 'properties', 'contact_number'],
      /'contact_number'/,
    );
  });

  it('svc-phone-fields-e164: a *_phone property referencing another schema is reported at its parent', async () => {
    const r = await lint(
      mutate((d) => (d.components.schemas.Note.properties.callback_phone = { $ref: '#/components/schemas/UserId' })),
    );
    expectReported(r, 'svc-phone-fields-e164', [...SCHEMAS, 'Note', 'properties'], /'callback_phone'/);
  });

  it('svc-phone-fields-e164: a phone parameter with a plain string schema', async () => {
    const r = await lint(
      mutate((d) =>
        getOp(d).parameters.push({
          name: 'svc_number',
          in: 'query',
          required: false,
          description: 'The line.',
          schema: { type: 'string' },
        }),
      ),
    );
    expectReported(r, 'svc-phone-fields-e164', [...GET, 'parameters', 3, 'schema'], /'svc_number'/);
  });

  it('svc-prefixed-id-fields: an id pattern that does not start with its prefix', async () => {
    const r = await lint(mutate((d) => (d.components.schemas.UserId.pattern = '^[a-z]{3}-.+$')));
    expectReported(r, 'svc-prefixed-id-fields', [...SCHEMAS, 'UserId', 'pattern'], /usr-/);
  });

  it('svc-prefixed-id-fields: user_id that is not a usr- id', async () => {
    const r = await lint(
      mutate((d) => (d.components.schemas.Note.properties.user_id = { $ref: '#/components/schemas/NoteId' })),
    );
    expectReported(r, 'svc-prefixed-id-fields', [...SCHEMAS, 'Note', 'properties'], /'user_id'.*usr-/);
  });

  it('svc-prefixed-id-fields: NoteUser.id that is a plain string', async () => {
    const r = await lint(
      mutate((d) => (d.components.schemas.NoteUser.properties.id = { type: 'string', examples: ['usr-4TgB81cd'] })),
    );
    expectReported(r, 'svc-prefixed-id-fields', [...SCHEMAS, 'NoteUser', 'properties', 'id'], /'id' of NoteUser/);
  });

  it('svc-prefixed-id-fields: an anyOf of prefixed ids covering every prefix is accepted', async () => {
    const r = await lint(
      mutate((d) => (d.components.schemas.NoteAuthorOrNoteId = anyOfIds(['usr-', 'not-'], ['UserId', 'NoteId']))),
    );
    expectSilent(r, 'svc-prefixed-id-fields');
  });

  it('svc-prefixed-id-fields: an anyOf of prefixed ids missing one of its prefixes', async () => {
    const r = await lint(
      mutate((d) => (d.components.schemas.NoteAuthorOrNoteId = anyOfIds(['usr-', 'not-'], ['UserId']))),
    );
    expectReported(r, 'svc-prefixed-id-fields', [...SCHEMAS, 'NoteAuthorOrNoteId'], /usr-, not- but no pattern/);
  });

  it('svc-snake-case-properties: a camelCase property', async () => {
    const r = await lint(mutate((d) => (d.components.schemas.Note.properties.createdAt = { type: 'string' })));
    expectReported(r, 'svc-snake-case-properties', [...SCHEMAS, 'Note', 'properties', 'createdAt'], /'createdAt'/);
  });

  it('svc-snake-case-properties: x-svc-naming-exception allows it', async () => {
    const r = await lint(
      mutate((d) => {
        d.components.schemas.Note.properties.createdAt = { type: 'string' };
        d.components.schemas.Note['x-svc-naming-exception'] = 'The description spells createdAt so.';
      }),
    );
    expectSilent(r, 'svc-snake-case-properties');
  });

  it('svc-snake-case-properties: x-svc-naming-exception covers its own schema\u2019s properties only, not nested ones', async () => {
    const r = await lint(
      mutate((d) => {
        d.components.schemas.Note['x-svc-naming-exception'] = 'The description spells createdAt so.';
        d.components.schemas.Note.properties.createdAt = {
          type: 'object',
          properties: { updatedAt: { type: 'string' } },
        };
      }),
    );
    expectSilent(
      r.filter((f) => f.path.includes('createdAt') && !f.path.includes('updatedAt')),
      'svc-snake-case-properties',
    );
    expectReported(
      r,
      'svc-snake-case-properties',
      [...SCHEMAS, 'Note', 'properties', 'createdAt', 'properties', 'updatedAt'],
      /'updatedAt'/,
    );
  });

  // Data keys: `properties` and `enum` inside example/default/const values are instance data, not
  // schema keywords. These rules walk schemas only (a JSONPath `$..properties` would reach the data).
  const dataWithSchemaKeys = { properties: { camelCase: 'x' }, enum: ['lower'] };
  const withDataKeys = (d: Json) => {
    d.components.schemas.Note.properties.metadata = {
      type: 'object',
      description: 'Free-form data.',
      example: dataWithSchemaKeys,
      examples: [dataWithSchemaKeys],
      default: dataWithSchemaKeys,
      const: dataWithSchemaKeys,
      enum: [dataWithSchemaKeys],
    };
    postOp(d).requestBody.content['application/json'].examples.note.value.metadata = dataWithSchemaKeys;
  };

  it('svc-snake-case-properties: a `properties` key in example, default, const or enum data is not flagged', async () => {
    expectSilent(await lint(mutate(withDataKeys)), 'svc-snake-case-properties');
  });

  it('svc-enum-upper-snake: an `enum` key in example, default or const data is not flagged', async () => {
    expectSilent(await lint(mutate(withDataKeys)), 'svc-enum-upper-snake');
  });

  it('svc-enum-upper-snake: a lower-case value in a nullable (type array) enum', async () => {
    const r = await lint(mutate((d) => (d.components.schemas.NoteStatus.enum = ['OPEN', 'done', null])));
    expectReported(r, 'svc-enum-upper-snake', [...SCHEMAS, 'NoteStatus', 'enum', 1], /'done'/);
  });

  it('svc-enum-upper-snake: x-svc-naming-exception allows it', async () => {
    const r = await lint(
      mutate((d) => {
        d.components.schemas.NoteStatus.enum = ['OPEN', 'done', null];
        d.components.schemas.NoteStatus['x-svc-naming-exception'] = 'The description spells done so.';
      }),
    );
    expectSilent(r, 'svc-enum-upper-snake');
  });

  it('svc-error-code-extension: a code that is not in the catalogue', async () => {
    const r = await lint(mutate((d) => (d.components.schemas.PhoneNumber['x-svc-error-code'] = 'BAD_PHONE')));
    expectReported(r, 'svc-error-code-extension', [...SCHEMAS, 'PhoneNumber', 'x-svc-error-code'], /BAD_PHONE/);
  });

  it('svc-error-code-extension: a map key that is not a JSON Schema keyword', async () => {
    const r = await lint(
      mutate((d) => (d.components.schemas.NoteContent['x-svc-error-code'].blank = 'EMPTY_NOTE_CONTENT')),
    );
    expectReported(r, 'svc-error-code-extension', [...SCHEMAS, 'NoteContent', 'x-svc-error-code'], /'blank'/);
  });

  it('svc-error-code-extension: an operation whose 400 does not list the code of a body schema', async () => {
    const r = await lint(mutate((d) => removeCode(postOp(d).responses['400'], 'INVALID_PHONE_FORMAT')));
    expectReported(
      r,
      'svc-error-code-extension',
      [...POST, 'responses', '400'],
      /createNote.*INVALID_PHONE_FORMAT \(request body\)/,
    );
  });

  it('svc-error-code-extension: an operation whose 400 does not list the code of a parameter schema', async () => {
    const r = await lint(mutate((d) => removeCode(getOp(d).responses['400'], 'INVALID_PAGE_SIZE')));
    expectReported(r, 'svc-error-code-extension', [...GET, 'responses', '400'], /INVALID_PAGE_SIZE \(parameter page\)/);
  });

  it('svc-error-code-extension: a code next to a $ref is seen too', async () => {
    const r = await lint(
      mutate((d) => (d.components.schemas.Note.properties.callback_phone['x-svc-error-code'] = 'NOPE')),
    );
    expectReported(r, 'svc-error-code-extension', [...SCHEMAS, 'Note', 'properties'], /NOPE/);
  });

  it('svc-valid-examples: a request example that breaks its schema', async () => {
    const r = await lint(
      mutate(
        (d) => (postOp(d).requestBody.content['application/json'].examples.note.value.contact_number = '415-555-0123'),
      ),
    );
    expectReported(
      r,
      'svc-valid-examples',
      [...POST, 'requestBody', ...JSON_BODY, 'examples', 'note', 'value'],
      /contact_number/,
    );
  });

  it('svc-valid-examples: Unicode patterns are honoured (no letter or digit fails, accents pass)', async () => {
    const bad = await lint(
      mutate((d) => (postOp(d).requestBody.content['application/json'].examples.note.value.content = '!!! ???')),
    );
    expectReported(
      bad,
      'svc-valid-examples',
      [...POST, 'requestBody', ...JSON_BODY, 'examples', 'note', 'value'],
      /content/,
    );
    const good = await lint(
      mutate((d) => (postOp(d).requestBody.content['application/json'].examples.note.value.content = 'Rappeler Zoé')),
    );
    expectSilent(good, 'svc-valid-examples');
  });

  it('svc-valid-examples: response, parameter and header examples are checked, each named once', async () => {
    const r = await lint(
      mutate((d) => {
        getOp(d).responses['400'].content['application/json'].examples.INVALID_PAGE_SIZE.value.error.retryable = 'no';
        d.components.parameters.RequestIdParameter.example = '';
        d.components.headers.RateLimitRemainingHeader.example = -1;
      }),
    );
    const response = expectReported(
      r,
      'svc-valid-examples',
      [...GET, 'responses', '400', ...JSON_BODY, 'examples', 'INVALID_PAGE_SIZE', 'value'],
      /^Example 'INVALID_PAGE_SIZE' of response 400 \(application\/json\) .*retryable/,
    );
    expect(response).toHaveLength(1);
    expectReported(
      r,
      'svc-valid-examples',
      ['components', 'parameters', 'RequestIdParameter', 'example'],
      /^Example of parameter X-Request-Id /,
    );
    expectReported(
      r,
      'svc-valid-examples',
      ['components', 'headers', 'RateLimitRemainingHeader', 'example'],
      /^Example of header X-RateLimit-Remaining /,
    );
  });

  it('svc-valid-examples: a schema `examples` entry that breaks its schema', async () => {
    const r = await lint(mutate((d) => (d.components.schemas.UserId.examples = ['4TgB81cd'])));
    expectReported(r, 'svc-valid-examples', [...SCHEMAS, 'UserId', 'examples', 0], /pattern/);
  });
});

describe('document', () => {
  it('svc-paths-v2-prefix: a path outside /v2/api/', async () => {
    const r = await lint(
      mutate((d) => {
        d.paths = { '/api/notes': d.paths['/v2/api/notes'] };
      }),
    );
    expectReported(r, 'svc-paths-v2-prefix', ['paths', '/api/notes'], /'\/api\/notes'/);
  });

  it('svc-root-refs-only: a path entry with more than $ref', async () => {
    const r = await lint(mutate((d) => (d.paths['/v2/api/notes'].summary = 'Notes')));
    expectReported(r, 'svc-root-refs-only', ['paths', '/v2/api/notes'], /must not have more than 1 properties/);
  });

  it('svc-root-refs-only: an inline webhook', async () => {
    const r = await lint(
      mutate((d) => (d.webhooks.NOTE_CREATED = structuredClone(d.components.pathItems.NoteCreatedWebhook))),
    );
    expectReported(
      r,
      'svc-root-refs-only',
      ['webhooks', 'NOTE_CREATED'],
      /"NOTE_CREATED" property must have required property "\$ref"/,
    );
  });

  it('svc-marker-text: an empty entry in an x-svc-inferred map', async () => {
    const r = await lint(mutate((d) => (getOp(d)['x-svc-inferred'].scope = '')));
    expectReported(r, 'svc-marker-text', [...GET, 'x-svc-inferred'], /x-svc-inferred/);
  });

  it('svc-marker-text: an empty x-svc-unspecified list', async () => {
    const r = await lint(mutate((d) => (d.components.pathItems.NoteCreatedWebhook.post['x-svc-unspecified'] = [])));
    expectReported(r, 'svc-marker-text', [...WEBHOOK, 'x-svc-unspecified'], /an empty list/);
  });

  it('svc-marker-text: an empty marker next to a $ref is seen too', async () => {
    const r = await lint(mutate((d) => (d.components.schemas.Note.properties.callback_phone['x-svc-inferred'] = ' ')));
    expectReported(r, 'svc-marker-text', [...SCHEMAS, 'Note', 'properties'], /next to the \$ref at 'callback_phone'/);
  });

  it('svc-fully-resolved: a $ref left unresolved (here: to a missing file)', async () => {
    const r = await lint(
      mutate((d) => (d.components.schemas.Note.properties.user_id = { $ref: './missing/UserId.yaml' })),
    );
    expectReported(
      r,
      'svc-fully-resolved',
      [...SCHEMAS, 'Note', 'properties'],
      /1 \$ref\(s\) were left unresolved \(\.\/missing\/UserId\.yaml; the first at 'user_id'\)/,
    );
  });

  it('svc-openapi-schema: a null response is reported, and crashes no rule', async () => {
    const r = await lint(mutate((d) => (getOp(d).responses['429'] = null)));
    expectReported(r, 'svc-openapi-schema', [...GET, 'responses', '429'], /must be object/);
  });

  it('svc-openapi-schema: a response without description (validated on the resolved document)', async () => {
    const r = await lint(mutate((d) => delete d.components.responses.Unauthorized.description));
    expectReported(r, 'svc-openapi-schema', ['components', 'responses', 'Unauthorized'], /description/);
  });
});

describe('the multi-file layout of the real spec', () => {
  // The base fixture split into one file per component, with relative $refs, like spec/: the root
  // keeps only info, servers, security, tags, $refs under paths/webhooks and the security scheme.
  let dir: string;

  function split(doc: Json, into: string): string {
    const fileOf = (kind: string, name: string) =>
      kind === 'pathItems' ? `paths/${name}.yaml` : `components/${kind}/${name}.yaml`;
    const rewrite = (node: Json, from: string): Json => {
      if (Array.isArray(node)) return node.map((n) => rewrite(n, from));
      if (node === null || typeof node !== 'object') return node;
      const out: Json = {};
      for (const [k, v] of Object.entries(node)) out[k] = rewrite(v, from);
      const m = typeof node.$ref === 'string' ? /^#\/components\/([^/]+)\/([^/]+)$/.exec(node.$ref) : null;
      if (m !== null && m[1] !== 'securitySchemes') {
        const rel = path.posix.relative(path.posix.dirname(from), fileOf(m[1], m[2]));
        out.$ref = rel.startsWith('.') ? rel : `./${rel}`;
      }
      return out;
    };
    const write = (file: string, content: Json) => {
      fs.mkdirSync(path.dirname(path.join(into, file)), { recursive: true });
      fs.writeFileSync(path.join(into, file), YAML.stringify(content));
    };
    for (const [kind, items] of Object.entries<Json>(doc.components)) {
      if (kind === 'securitySchemes') continue;
      for (const [name, value] of Object.entries(items)) write(fileOf(kind, name), rewrite(value, fileOf(kind, name)));
    }
    const root = rewrite({ ...doc, components: { securitySchemes: doc.components.securitySchemes } }, 'openapi.yaml');
    write('openapi.yaml', root);
    return path.join(into, 'openapi.yaml');
  }

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-lint-'));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('passes with zero results (the catalogue is found through ApiError, not components)', async () => {
    const root = split(base, path.join(dir, 'valid'));
    const r = await lintFile(root);
    expect(r, show(r)).toEqual([]);
  });

  it('reports a finding in the file where it is written', async () => {
    const root = split(
      mutate((d) => (d.components.schemas.ErrorCode['x-svc-codes'].INVALID_PAGE_SIZE['x-svc-status'] = 404)),
      path.join(dir, 'mutated'),
    );
    const r = await lintFile(root);
    const [hit] = expectReported(
      r,
      'svc-error-response-shape',
      ['get', 'responses', '400', ...JSON_BODY, ...ERROR_PROPS, 'code', 'enum', 0],
      /catalogue status is 404/,
    );
    expect(hit.source).toBe(path.join(dir, 'mutated', 'paths', 'Notes.yaml'));
  });

  it('svc-fully-resolved: a file referenced from more than 100 places (Spectral\u2019s resolver limit)', async () => {
    // 120 path files each reference Header.yaml, which references Schema.yaml. Spectral's default
    // resolver leaves Schema.yaml unresolved at about 20 of them; lint/resolver.cjs resolves all.
    // (Should an upgrade of Spectral fix the default resolver, the first half of this test fails:
    // then --resolver lint/resolver.cjs is no longer needed for that reason.)
    const fan = path.join(dir, 'fan');
    fs.mkdirSync(path.join(fan, 'paths'), { recursive: true });
    const paths: Json = {};
    for (let i = 0; i < 120; i++) {
      paths[`/v2/api/p${i}`] = { $ref: `./paths/p${i}.yaml` };
      fs.writeFileSync(
        path.join(fan, 'paths', `p${i}.yaml`),
        YAML.stringify({
          get: { responses: { '200': { description: 'OK', headers: { 'X-Request-Id': { $ref: '../Header.yaml' } } } } },
        }),
      );
    }
    fs.writeFileSync(
      path.join(fan, 'Header.yaml'),
      YAML.stringify({ description: 'Id.', schema: { $ref: './Schema.yaml' } }),
    );
    fs.writeFileSync(path.join(fan, 'Schema.yaml'), YAML.stringify({ type: 'string' }));
    fs.writeFileSync(
      path.join(fan, 'openapi.yaml'),
      YAML.stringify({ openapi: '3.1.0', info: { title: 'Fan', version: '1' }, paths }),
    );

    const withDefaultResolver = new Spectral();
    withDefaultResolver.setRuleset(ruleset);
    const broken = await lintFile(path.join(fan, 'openapi.yaml'), withDefaultResolver);
    expect(
      broken.filter((f) => f.code === 'svc-fully-resolved'),
      show(broken),
    ).toHaveLength(1);
    expect(broken.find((f) => f.code === 'svc-fully-resolved')?.message).toMatch(
      /\.\/Schema\.yaml.*--resolver lint\/resolver\.cjs/,
    );

    const fixed = await lintFile(path.join(fan, 'openapi.yaml'));
    expectSilent(fixed, 'svc-fully-resolved');
  });
});
