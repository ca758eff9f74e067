import { execFileSync } from 'node:child_process';
import { readLimits } from '@svc/spec-runtime/walk';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import {
  addCodeSamples,
  CLIENT_LABEL,
  type CodeSample,
  CURL_LABEL,
  clientSample,
  codeSamplesFor,
  jsLiteral,
  sampleRequestFor,
  shellQuote,
} from '../src/code-samples.js';
import { loadBundle } from '../src/load-bundle.js';
import {
  asJson,
  firstRequestBodyExample,
  listOperations,
  type OpenApiDocument,
  operationLabel,
  parametersOf,
} from '../src/openapi.js';
import { freshOnSandbox, itemWithoutThread } from '../src/sandbox-fresh.js';

const bundle = loadBundle();
const operations = listOperations(bundle);
const writeMethods = new Set(readLimits(asJson(bundle)).writeMethods.map((method) => method.toLowerCase()));
const TEST_KEY = 'test-key-123';

/** Runs bash hermetically: no profile, no rc file, only the variables given. */
function bash(script: string, env: Record<string, string> = {}): string {
  return execFileSync('bash', ['--noprofile', '--norc', '-c', script], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env },
    encoding: 'utf8',
  });
}

const argumentsBySource = new Map<string, string[]>();
/** Runs a curl sample with `curl` replaced by a function that prints its arguments, one per NUL. */
function curlArguments(source: string, again = false): string[] {
  let args = again ? undefined : argumentsBySource.get(source);
  if (!args) {
    // uuidgen may be missing here: a stand-in with the same output (a fresh UUID per call).
    const uuidgen = `command -v uuidgen >/dev/null || uuidgen() { ${JSON.stringify(process.execPath)} -p 'crypto.randomUUID()'; }`;
    args = bash(`${uuidgen}\ncurl() { printf '%s\\0' "$@"; }\n${source}\n`, { SVC_API_KEY: TEST_KEY })
      .split('\0')
      .slice(0, -1);
    if (!again) argumentsBySource.set(source, args);
  }
  return args;
}

function headersOf(args: string[]): string[] {
  return args.flatMap((arg, index) => (args[index - 1] === '-H' ? [arg] : []));
}

function sampleOf(samples: CodeSample[], label: string): CodeSample {
  const sample = samples.find((candidate) => candidate.label === label);
  if (!sample) throw new Error(`no ${label} sample`);
  return sample;
}

describe('code samples', () => {
  it('gives every operation of the bundle a curl and an @svc/api-client sample, in a copy', () => {
    const docs = structuredClone(bundle);
    addCodeSamples(docs);
    expect(operations.length).toBeGreaterThan(0);
    for (const entry of listOperations(docs)) {
      const samples = entry.operation['x-codeSamples'] as CodeSample[];
      expect(
        samples.map((sample) => sample.label),
        operationLabel(entry),
      ).toEqual([CURL_LABEL, CLIENT_LABEL]);
      for (const sample of samples) expect(sample.source.trim()).not.toBe('');
    }
    // The published bundle is never touched.
    expect(JSON.stringify(bundle)).not.toContain('x-codeSamples');
  });

  describe.each(operations.map((entry) => [operationLabel(entry), entry] as const))('%s', (_label, entry) => {
    const samples = codeSamplesFor(bundle, entry);
    const curl = sampleOf(samples, CURL_LABEL).source;
    const client = sampleOf(samples, CLIENT_LABEL).source;
    const isWrite = writeMethods.has(entry.method);

    it('curl: a valid shell command with the method, the encoded URL and the API key', () => {
      const args = curlArguments(curl);
      const url = args.find((arg) => arg.startsWith('http'));
      // The curl command carries the sample request's URL exactly: examples in, path values encoded.
      expect(url).toBe(sampleRequestFor(bundle, entry).url);
      expect(new URL(url!).pathname.startsWith('/v2/api')).toBe(true);
      // A phone number's + must travel as %2B: a bare + would read as a space.
      expect(url).not.toContain('+');
      const pathParameters = parametersOf(bundle, entry).filter((parameter) => parameter.in === 'path');
      for (const parameter of pathParameters) expect(url).not.toContain(`{${parameter.name}}`);
      if (entry.method === 'get') expect(args).not.toContain('-X');
      else expect(args.slice(args.indexOf('-X'), args.indexOf('-X') + 2)).toEqual(['-X', entry.method.toUpperCase()]);
      expect(headersOf(args)).toContain(`Authorization: Api-Key ${TEST_KEY}`);
    });

    it(`curl: ${isWrite ? 'carries a fresh' : 'carries no'} Idempotency-Key`, () => {
      const keys = headersOf(curlArguments(curl)).filter((header) => header.startsWith('Idempotency-Key: '));
      expect(keys).toHaveLength(isWrite ? 1 : 0);
      // Never a hard-coded key: each run makes its own.
      if (isWrite)
        expect(headersOf(curlArguments(curl, true)).find((header) => header.startsWith('Idempotency-Key: '))).not.toBe(
          keys[0],
        );
    });

    it('curl: sends the first request-body example as JSON', () => {
      const args = curlArguments(curl);
      const example = firstRequestBodyExample(bundle, entry.operation);
      if (example === undefined) {
        expect(args).not.toContain('-d');
      } else {
        // The contract's example, with seed-dependent values made to work on a fresh sandbox.
        expect(JSON.parse(args[args.indexOf('-d') + 1]!)).toEqual(sampleRequestFor(bundle, entry).body?.value);
        expect(Object.keys(JSON.parse(args[args.indexOf('-d') + 1]!) as object)).toEqual(
          Object.keys(example.value as object),
        );
        expect(headersOf(args)).toContain('Content-Type: application/json');
      }
    });

    it('@svc/api-client: parses as TypeScript and calls the typed method on the path template', () => {
      const { diagnostics } = ts.transpileModule(client, {
        reportDiagnostics: true,
        compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext },
      });
      expect(diagnostics?.map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'))).toEqual(
        [],
      );
      expect(client).toContain("import { createSvcClient } from '@svc/api-client';");
      expect(client).toContain('apiKey: process.env.SVC_API_KEY');
      expect(client).toContain(`svc.${entry.method.toUpperCase()}('${entry.path}'`);
      // The client makes a fresh key per write: a sample never hard-codes one.
      expect(client).not.toContain('idempotencyKey:');
      expect(client.includes('fresh Idempotency-Key')).toBe(isWrite);
    });
  });

  it('puts the example of every path parameter into the URL, phone numbers as %2B…', () => {
    const phone = operations.find((entry) => entry.path.includes('{contact_number}'));
    expect(phone && operationLabel(phone)).toBe('PUT /v2/api/conversations/{contact_number}/action');
    const request = sampleRequestFor(bundle, phone!);
    expect(request.url).toMatch(/\/conversations\/%2B\d+\//);
    // The typed client encodes path values itself: it gets the plain + form.
    expect(clientSample(request)).toMatch(/contact_number: '\+\d+'/);
  });

  it("swaps a thread's item that already has a seeded thread for one without, so the sample works on a fresh sandbox", async () => {
    const { loadSeedFile } = await import('@svc/sandbox');
    const seed = loadSeedFile();
    const threaded = seed.teams.flatMap((team) => team.threads.map((thread) => thread.entity_id));
    const createThread = operations.find((entry) => entry.method === 'post' && entry.path === '/v2/api/threads')!;
    const body = sampleRequestFor(bundle, createThread).body!.value as { entity_type: string; entity_id: string };
    expect(threaded).not.toContain(body.entity_id);
    expect(body.entity_id).toBe(itemWithoutThread(body.entity_type));
    // Bodies without a taken item are left as the contract wrote them.
    expect(freshOnSandbox({ entity_type: 'CALL', entity_id: body.entity_id, content: 'x' })).toEqual({
      entity_type: 'CALL',
      entity_id: body.entity_id,
      content: 'x',
    });
  });

  it('refuses an operation whose path parameter has no example, rather than inventing one', () => {
    const doc: OpenApiDocument = {
      openapi: '3.1.0',
      info: { title: 't', version: '1' },
      servers: [{ url: 'http://localhost' }],
      paths: {
        '/things/{id}': {
          get: { parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }], responses: {} },
        },
      },
    };
    expect(() => sampleRequestFor(doc, listOperations(doc)[0]!)).toThrow(/path parameter id has no example/);
  });
});

describe('quoting', () => {
  it('single-quotes for the shell, apostrophes included', () => {
    const text = `it's "$HOME" and \`x\``;
    expect(bash(`printf '%s' ${shellQuote(text)}`, { HOME: '/nowhere' })).toBe(text);
  });

  it('writes JavaScript literals like hand-written code', () => {
    expect(jsLiteral({ a: 1, 'b-c': [true, null], d: "customer's" })).toBe(
      `{ a: 1, 'b-c': [true, null], d: "customer's" }`,
    );
    const long = jsLiteral({ text: 'x'.repeat(90) });
    expect(long).toBe(`{\n  text: '${'x'.repeat(90)}',\n}`);
  });
});
