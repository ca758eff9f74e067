// The suite's side of the mutation test, kept in the test runner's main process for the whole
// Stryker run (a vitest globalSetup lives as long as the vitest instance Stryker keeps).
//
// Why: vitest starts a new worker thread for every run Stryker asks of it, one per mutant, and
// everything loaded there is loaded again. The suite's part of that (its modules, the spec, the
// validators it compiles, about a second a mutant) never changes between mutants: only the
// reference server does. So the worker (suite.mutation.ts) starts the mutated server, and asks this
// host, over HTTP on 127.0.0.1, to run the suite against it; the host answers with the verdict. The
// run is the one an embedded sandbox gets: the same seed, its keys and config, the same options.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadSeedFile } from '@svc/sandbox';
import type { TestProject } from 'vitest/node';
import { type ContractOptions, configFromSeed, loadSpec, runContract, withScopeKeys } from '../src/index.js';

/** What the worker asks for: one run of the suite against the mutated server at `baseUrl`. */
export interface HostRun {
  baseUrl: string;
  only: string[];
  /** 'off' for the runs with the limits off; else the suite paces itself at the documented rates. */
  rate?: 'off';
  burst?: boolean;
}

/** The run's verdict: its exit code, the ids of the checks that failed, and the run's own errors (a rule that never reached its precondition, too many skips). */
export interface HostVerdict {
  exitCode: number;
  failed: string[];
  errors: string[];
}

/**
 * What the worker is given: where the host listens, and what a run can be limited to (each resource, then the API-wide checks), one test each.
 */
export interface ContractHost {
  url: string;
  resources: string[];
}

declare module 'vitest' {
  export interface ProvidedContext {
    contractHost: ContractHost;
  }
}

const FULL: ContractOptions = { profile: 'full', allowWrites: true, quiet: true, print: false, reporters: [] };

function failedChecks(result: Awaited<ReturnType<typeof runContract>>): string[] {
  const failed = result.report.operations.flatMap((operation) =>
    operation.checks.filter((check) => check.status === 'failed').map((check) => check.id),
  );
  return [...new Set(failed)].sort();
}

async function bodyOf(request: IncomingMessage): Promise<HostRun> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as HostRun;
}

function answer(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const spec = loadSpec();
  const allScopes = Object.keys(spec.contract.scopes);
  // The embedded sandbox's key and config (embedded.ts): the worker's server is started from the same seed.
  const { apiKey, config } = configFromSeed(withScopeKeys(loadSeedFile(), spec.contract), allScopes);

  const server: Server = createServer((request, response) => {
    bodyOf(request)
      .then(async (run) => {
        const result = await runContract({ ...FULL, ...run, apiKey, config });
        answer(response, 200, {
          exitCode: result.exitCode,
          failed: failedChecks(result),
          errors: result.report.errors,
        } satisfies HostVerdict);
      })
      // The run itself threw: the worker's test fails with the error, as it did when the suite ran there.
      .catch((error: unknown) =>
        answer(response, 500, { error: error instanceof Error ? error.stack : String(error) }),
      );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  project.provide('contractHost', {
    url: `http://127.0.0.1:${port}/`,
    resources: [...spec.resources(), 'api-wide'],
  });
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
}
