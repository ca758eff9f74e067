// info.x-svc-limits: the contract's machine-readable rate limits and numeric limits.
import type { OpenApiDocument } from './openapi.js';

export type Limits = Record<string, unknown> & {
  read_requests_per_second: number;
  write_requests_per_second: number;
  read_methods: string[];
  write_methods: string[];
};

export function limitsOf(doc: OpenApiDocument): Limits {
  const limits = doc.info['x-svc-limits'] as Partial<Limits> | undefined;
  if (!limits || typeof limits.read_requests_per_second !== 'number' || !Array.isArray(limits.write_methods)) {
    throw new Error('info.x-svc-limits is missing or lacks the read/write limits');
  }
  return limits as Limits;
}

/** A limit the guides must have; the build fails if the contract stops stating it. */
export function numericLimit(limits: Limits, key: string): number {
  const value = limits[key];
  if (typeof value !== 'number') throw new Error(`info.x-svc-limits.${key} is missing`);
  return value;
}
