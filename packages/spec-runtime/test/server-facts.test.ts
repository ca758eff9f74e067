// What servers read from the bundle instead of typing it: header names and id prefixes.
import { describe, expect, it } from 'vitest';
import { idPrefixOf, loadContract, serverHeaderNames } from '../src/index.js';
import { bundle, contract } from './support/contract.js';

describe('serverHeaderNames', () => {
  it('names the request and response headers as the bundle spells them', () => {
    expect(serverHeaderNames(contract())).toEqual({
      requestId: 'X-Request-Id',
      idempotencyKey: 'Idempotency-Key',
      idempotencyReplayed: 'Idempotency-Replayed',
      rateLimitLimit: 'X-RateLimit-Limit',
      rateLimitRemaining: 'X-RateLimit-Remaining',
      rateLimitReset: 'X-RateLimit-Reset',
    });
  });

  it('follows a renamed parameter', () => {
    const copy = structuredClone(bundle) as { components: { parameters: { RequestIdParameter: { name: string } } } };
    copy.components.parameters.RequestIdParameter.name = 'X-Trace-Id';
    expect(serverHeaderNames(loadContract(copy)).requestId).toBe('X-Trace-Id');
  });
});

describe('idPrefixOf', () => {
  it("reads the prefix of an id schema's pattern", () => {
    expect(idPrefixOf(contract(), 'ThreadId')).toBe('cth-');
    expect(idPrefixOf(contract(), 'UserId')).toBe('usr-');
  });

  it('refuses a schema without a literal prefix pattern', () => {
    expect(() => idPrefixOf(contract(), 'ThreadEntityId')).toThrow(/no single x-svc-id-prefix/);
    expect(() => idPrefixOf(contract(), 'NoSuchSchema')).toThrow(/no single x-svc-id-prefix/);
  });
});
