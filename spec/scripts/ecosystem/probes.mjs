// What each generator must get right, as TypeScript compiled with its output (one probe.ts per
// folder, in the matrix's single tsc run) plus a check of the names it exported:
// - the error code is the catalogue as a union or enum, not `string`;
// - an operation's success type is the documented schema (createThread: ThreadResponse, under both
//   readings of its status, 200 and 201), and a narrowed error keeps only its codes: its code is
//   neither never (a narrowed list intersected with the catalogue enum), nor string, nor unknown,
//   and is mutually assignable with the expected union (some generators give `string & GetThreadNotFoundCode`);
// - names are short (no path-derived names) and never numbered copies (Foo2).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const HELPERS = `type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true : false;
type Expect<T extends true> = T;
type Mutual<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Narrowed<T, Expected> = [T] extends [never] ? false : unknown extends T ? false : string extends T ? false : Mutual<T, Expected>;
`;

/** probe.ts per generator folder. */
export const probes = {
  'openapi-typescript': `import type { components, paths } from './schema';
${HELPERS}
type Code = components['schemas']['ErrorCode'];
export type CodeIsNotString = Expect<string extends Code ? false : true>;
export type CodeHasCatalogue = Expect<'THREAD_NOT_FOUND' extends Code ? true : false>;
type Created = paths['/v2/api/threads']['post']['responses'];
export type SuccessIsDocumented = Expect<Equal<Created[201]['content']['application/json'], components['schemas']['ThreadResponse']>>;
export type OtherReadingToo = Expect<Equal<Created[200]['content']['application/json'], components['schemas']['ThreadResponse']>>;
export type NarrowedCode = Expect<Narrowed<components['schemas']['GetThreadNotFoundError']['code'], 'THREAD_NOT_FOUND'>>;
export type NarrowedCodes = Expect<Narrowed<components['schemas']['UnauthorizedError']['code'], 'UNAUTHORIZED' | 'API_KEY_INVALID' | 'API_KEY_REVOKED'>>;
`,
  'openapi-typescript-enum': `import { ErrorCode, GetThreadNotFoundCode, UnauthorizedCode, type components, type paths } from './schema';
${HELPERS}
export const member: ErrorCode = ErrorCode.THREAD_NOT_FOUND;
export type CodeIsNotString = Expect<string extends ErrorCode ? false : true>;
type Created = paths['/v2/api/threads']['post']['responses'];
export type SuccessIsDocumented = Expect<Equal<Created[201]['content']['application/json'], components['schemas']['ThreadResponse']>>;
export type NarrowedCode = Expect<Narrowed<components['schemas']['GetThreadNotFoundError']['code'], GetThreadNotFoundCode>>;
export type NarrowedCodes = Expect<Narrowed<components['schemas']['UnauthorizedError']['code'], UnauthorizedCode>>;
export const narrowedMember: components['schemas']['GetThreadNotFoundError']['code'] = GetThreadNotFoundCode.THREAD_NOT_FOUND;
`,
  'hey-api': `import type { CreateThreadResponses, ErrorCode, GetThreadNotFoundError, ThreadResponse, UnauthorizedError } from './types.gen';
${HELPERS}
export type CodeIsNotString = Expect<string extends ErrorCode ? false : true>;
export type CodeHasCatalogue = Expect<'THREAD_NOT_FOUND' extends ErrorCode ? true : false>;
export type SuccessIsDocumented = Expect<Equal<CreateThreadResponses[201], ThreadResponse>>;
export type OtherReadingToo = Expect<Equal<CreateThreadResponses[200], ThreadResponse>>;
export type NarrowedCode = Expect<Narrowed<GetThreadNotFoundError['code'], 'THREAD_NOT_FOUND'>>;
export type NarrowedCodes = Expect<Narrowed<UnauthorizedError['code'], 'UNAUTHORIZED' | 'API_KEY_INVALID' | 'API_KEY_REVOKED'>>;
`,
  orval: `import type { ErrorCode, GetThreadNotFoundError, ThreadResponse, UnauthorizedError, createThreadResponse200, createThreadResponse201 } from './client';
${HELPERS}
export type CodeIsNotString = Expect<string extends ErrorCode ? false : true>;
export type CodeHasCatalogue = Expect<'THREAD_NOT_FOUND' extends ErrorCode ? true : false>;
export type SuccessIsDocumented = Expect<Equal<createThreadResponse201['data'], ThreadResponse>>;
export type OtherReadingToo = Expect<Equal<createThreadResponse200['data'], ThreadResponse>>;
export type NarrowedCode = Expect<Narrowed<GetThreadNotFoundError['code'], 'THREAD_NOT_FOUND'>>;
export type NarrowedCodes = Expect<Narrowed<UnauthorizedError['code'], 'UNAUTHORIZED' | 'API_KEY_INVALID' | 'API_KEY_REVOKED'>>;
`,
  'swagger-typescript-api': `import { Api, ErrorCode, GetThreadNotFoundCode, UnauthorizedCode, type GetThreadNotFoundError, type ThreadResponse, type UnauthorizedError } from './api';
${HELPERS}
export const member: ErrorCode = ErrorCode.THREAD_NOT_FOUND;
export type CodeIsNotString = Expect<string extends ErrorCode ? false : true>;
type Created = Awaited<ReturnType<Api<unknown>['v2']['createThread']>>;
export type SuccessIsDocumented = Expect<Equal<Created['data'], ThreadResponse>>;
export type NarrowedCode = Expect<Narrowed<GetThreadNotFoundError['code'], GetThreadNotFoundCode>>;
export type NarrowedCodes = Expect<Narrowed<UnauthorizedError['code'], UnauthorizedCode>>;
`,
  // openapi-zod-client: the success schema of createThread is ThreadResponse, and a narrowed
  // error's code is its own list of catalogue codes. (It reaches ApiError only through
  // dependentSchemas, which it ignores, so the whole catalogue is not among its schemas.)
  'openapi-zod-client': `import { api, schemas } from './client';
import type { z } from 'zod';
${HELPERS}
type Created = Awaited<ReturnType<typeof api.createThread>>;
export type SuccessIsDocumented = Expect<Equal<Created, z.infer<typeof schemas.ThreadResponse>>>;
export type NarrowedCode = Expect<Narrowed<z.infer<typeof schemas.GetThreadNotFoundError>['code'], 'THREAD_NOT_FOUND'>>;
export type NarrowedCodes = Expect<Narrowed<z.infer<typeof schemas.UnauthorizedError>['code'], 'UNAUTHORIZED' | 'API_KEY_INVALID' | 'API_KEY_REVOKED'>>;
`,
};

const MAX_NAME = 48;
const EXPORTED = /^export (?:declare )?(?:enum|type|interface|const|class|function) ([A-Za-z_$][\w$]*)/gm;

/** Findings about the names a generator exported: too long (path-derived), or a numbered copy. */
export function nameFindings(folder) {
  const names = new Set();
  for (const entry of readdirSync(folder, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts') || entry.name === 'probe.ts') continue;
    const text = readFileSync(join(entry.parentPath ?? entry.path, entry.name), 'utf8');
    for (const [, name] of text.matchAll(EXPORTED)) names.add(name);
  }
  const findings = [];
  for (const name of names) {
    if (name.length > MAX_NAME)
      findings.push({ rule: 'long name', message: `${name} (${name.length} characters; at most ${MAX_NAME})` });
    const copy = /^(.*[A-Za-z])([2-9])$/.exec(name);
    if (copy && names.has(copy[1])) findings.push({ rule: 'numbered name', message: `${name} beside ${copy[1]}` });
  }
  return findings;
}
