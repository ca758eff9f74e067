// Servers for the package's own tests: the sandbox (the reference), and a mutating proxy in front
// of it that breaks one rule of the contract at a time.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadSeedFile, type RunningSandbox, type SandboxOptions, startSandboxServer } from '@svc/sandbox';
import { configFromSeed, withScopeKeys } from '../../src/embedded.js';
import { loadSpec } from '../../src/spec.js';
import type { ContractConfig } from '../../src/types.js';

export interface Target {
  url: string;
  apiKey: string;
  config: ContractConfig;
  close(): Promise<void>;
}

/**
 * The config with each key named by the seed's name for it ("Sandbox demo key: revoked"), where the
 * sandbox's own config names a demo key by its value: a report then shows `<redacted:<name>>`,
 * a placeholder that holds no key.
 */
function withSeedNames(config: ContractConfig, seed: ReturnType<typeof loadSeedFile>): ContractConfig {
  const names = new Map(seed.keys.map((k) => [k.key, k.name]));
  return { ...config, keys: config.keys.map((k) => ({ ...k, name: names.get(k.key) ?? k.name })) };
}

/** A sandbox on 127.0.0.1 (rate limits off unless asked), with the key and config of its seed. */
export async function sandbox(options: SandboxOptions = {}): Promise<Target & { running: RunningSandbox }> {
  const { contract } = loadSpec();
  const scopes = Object.keys(contract.scopes);
  const seed = withScopeKeys(loadSeedFile(), contract);
  const { apiKey, config: named } = configFromSeed(seed, scopes);
  const config = withSeedNames(named, seed);
  const running = await startSandboxServer({ port: 0, host: '127.0.0.1', seed, rateLimit: false, ...options });
  return { url: running.url, apiKey, config, running, close: () => running.close() };
}

export interface ProxiedRequest {
  method: string;
  path: string;
  headers: Headers;
  body: string | undefined;
}

/** A proxied request's path without its query. */
export const pathOf = (q: ProxiedRequest) => q.path.split('?')[0] ?? '';

/** A proxied request's JSON body as an object ({} when it is none or not JSON). */
export const bodyOf = (q: ProxiedRequest): Record<string, unknown> => {
  try {
    const body = JSON.parse(q.body ?? '') as unknown;
    return typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  } catch {
    return {};
  }
};

export interface ProxiedResponse {
  status: number;
  headers: Headers;
  body: string;
}

export interface Mutation {
  request?(request: ProxiedRequest): ProxiedRequest;
  response?(response: ProxiedResponse, request: ProxiedRequest): ProxiedResponse;
}

function readBody(req: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(chunks.length ? Buffer.concat(chunks).toString('utf8') : undefined));
    req.on('error', reject);
  });
}

const HOP = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive']);

/** A proxy on 127.0.0.1 in front of a target that applies one mutation to what passes through. */
export async function mutatingProxy(target: Target, mutation: Mutation): Promise<Target> {
  const server: Server = createServer(async (req, res) => {
    try {
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers))
        if (!HOP.has(name) && typeof value === 'string') headers.set(name, value);
      let request: ProxiedRequest = {
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        headers,
        body: await readBody(req),
      };
      if (mutation.request) request = mutation.request(request);
      const upstream = await fetch(`${target.url}${request.path}`, {
        method: request.method,
        headers: request.headers,
        body: request.body,
      });
      let response: ProxiedResponse = {
        status: upstream.status,
        headers: new Headers(upstream.headers),
        body: await upstream.text(),
      };
      if (mutation.response) response = mutation.response(response, request);
      const out: Record<string, string> = {};
      response.headers.forEach((value, name) => {
        if (!HOP.has(name) && name !== 'content-encoding') out[name] = value;
      });
      res.writeHead(response.status, out);
      res.end(response.body);
    } catch (error) {
      res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(String(error));
    }
  });
  // No idle timeout of its own: the suite's fetch closes an idle connection first, so a request is
  // never sent on one the proxy is closing (a reset, on a loaded machine). close() ends them all.
  server.keepAliveTimeout = 0;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    apiKey: target.apiKey,
    config: target.config,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A JSON body mutation helper: parse, change, serialise (non-JSON passes unchanged). */
export function json(response: ProxiedResponse, change: (body: Record<string, unknown>) => void): ProxiedResponse {
  try {
    const body = JSON.parse(response.body) as Record<string, unknown>;
    change(body);
    return { ...response, body: JSON.stringify(body) };
  } catch {
    return response;
  }
}

/** The `data` object of a JSON body, where it is one. */
export const dataIn = (b: Record<string, unknown>) =>
  typeof b.data === 'object' && b.data !== null ? (b.data as Record<string, unknown>) : undefined;

/** The `error` object of a JSON body, where it is one. */
export const errorIn = (b: Record<string, unknown>) =>
  typeof b.error === 'object' && b.error !== null ? (b.error as Record<string, unknown>) : undefined;

/** The answer a limiter gives past its budget (RATE_LIMIT_EXCEEDED, as documented), in place of `r`. */
export function tooMany(r: ProxiedResponse, retryAfterSeconds = 1): ProxiedResponse {
  return json({ ...r, status: 429 }, (b) =>
    Object.assign(b, {
      data: undefined,
      pagination: undefined,
      error: {
        type: 'rate_limit_error',
        code: 'RATE_LIMIT_EXCEEDED',
        message: 'Too many requests',
        retryable: true,
        request_id: r.headers.get('x-request-id'),
        retry_after_seconds: retryAfterSeconds,
      },
    }),
  );
}

/**
 * A server that keeps no writes, as a stateless mock behaves: reads go to one sandbox, writes to
 * another, so every write is answered as documented and never seen again.
 */
export async function forgetfulServer(): Promise<Target & { closeAll(): Promise<void> }> {
  const reads = await sandbox();
  const writes = await sandbox();
  // The proxy sends to `${url}${path}`: with no url of its own, the path carries the server's.
  const server = await mutatingProxy(
    { ...reads, url: '' },
    { request: (q) => ({ ...q, path: `${q.method === 'GET' ? reads.url : writes.url}${q.path}` }) },
  );
  return {
    ...server,
    closeAll: async () => {
      await server.close();
      await reads.close();
      await writes.close();
    },
  };
}

/**
 * The Idempotency-Key of the matching requests hidden from the server (so it executes every
 * repeat again) and echoed back on the response as the contract asks.
 */
export function forgetsKeys(matches: (q: ProxiedRequest) => boolean): Mutation {
  return {
    request: (q) =>
      matches(q) && q.headers.has('idempotency-key')
        ? {
            ...q,
            headers: new Headers(
              [...q.headers].map(([n, v]): [string, string] => [
                n === 'idempotency-key' ? 'x-svc-forgotten-key' : n,
                v,
              ]),
            ),
          }
        : q,
    response: (r, q) => {
      const forgotten = q.headers.get('x-svc-forgotten-key');
      if (forgotten === null) return r;
      const headers = new Headers(r.headers);
      headers.set('idempotency-key', forgotten);
      return { ...r, headers };
    },
  };
}
