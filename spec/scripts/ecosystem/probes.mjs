// What each generator must get right, as TypeScript compiled with its output (one probe.ts per
// folder, in the matrix's single tsc run) plus a check of the names it exported:
// - the error code is the catalogue as a union or enum, not `string`;
// - an operation's success type is the documented schema (createThread: ThreadResponse, under both
//   readings of its status, 200 and 201), and a narrowed error keeps only its codes;
// - names are short (no path-derived names) and never numbered copies (Foo2).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const HELPERS = `type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true : false;
type Expect<T extends true> = T;
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
export type NarrowedCode = Expect<Equal<NonNullable<components['schemas']['GetThreadNotFoundError']['code']>, 'THREAD_NOT_FOUND'>>;
`,
  'openapi-typescript-enum': `import { ErrorCode, type components, type paths } from './schema';
${HELPERS}
export const member: ErrorCode = ErrorCode.THREAD_NOT_FOUND;
export type CodeIsNotString = Expect<string extends ErrorCode ? false : true>;
type Created = paths['/v2/api/threads']['post']['responses'];
export type SuccessIsDocumented = Expect<Equal<Created[201]['content']['application/json'], components['schemas']['ThreadResponse']>>;
`,
  'hey-api': `import type { CreateThreadResponses, ErrorCode, GetThreadNotFoundError, ThreadResponse } from './types.gen';
${HELPERS}
export type CodeIsNotString = Expect<string extends ErrorCode ? false : true>;
export type CodeHasCatalogue = Expect<'THREAD_NOT_FOUND' extends ErrorCode ? true : false>;
export type SuccessIsDocumented = Expect<Equal<CreateThreadResponses[201], ThreadResponse>>;
export type OtherReadingToo = Expect<Equal<CreateThreadResponses[200], ThreadResponse>>;
export type NarrowedCode = Expect<Equal<NonNullable<GetThreadNotFoundError['code']>, 'THREAD_NOT_FOUND'>>;
`,
  orval: `import type { ErrorCode, ThreadResponse, createThreadResponse200, createThreadResponse201 } from './client';
${HELPERS}
export type CodeIsNotString = Expect<string extends ErrorCode ? false : true>;
export type CodeHasCatalogue = Expect<'THREAD_NOT_FOUND' extends ErrorCode ? true : false>;
export type SuccessIsDocumented = Expect<Equal<createThreadResponse201['data'], ThreadResponse>>;
export type OtherReadingToo = Expect<Equal<createThreadResponse200['data'], ThreadResponse>>;
`,
  'swagger-typescript-api': `import { Api, ErrorCode, type ThreadResponse } from './api';
${HELPERS}
export const member: ErrorCode = ErrorCode.THREAD_NOT_FOUND;
export type CodeIsNotString = Expect<string extends ErrorCode ? false : true>;
type Created = Awaited<ReturnType<Api<unknown>['v2']['createThread']>>;
export type SuccessIsDocumented = Expect<Equal<Created['data'], ThreadResponse>>;
`,
  // openapi-zod-client: the success schema of createThread is ThreadResponse, and an error's code
  // is the catalogue enum. (It drops `properties` beside an allOf, so a narrowed error is typed as
  // ApiError: its code is the whole catalogue, not the narrowed list.)
  'openapi-zod-client': `import { api, schemas } from './client';
import type { z } from 'zod';
${HELPERS}
type Created = Awaited<ReturnType<typeof api.createThread>>;
export type SuccessIsDocumented = Expect<Equal<Created, z.infer<typeof schemas.ThreadResponse>>>;
type Code = z.infer<typeof schemas.ApiError>['code'];
export type CodeIsNotString = Expect<string extends Code ? false : true>;
export type CodeIsNotNever = Expect<[Code] extends [never] ? false : true>;
export type CodeIsCatalogue = Expect<Equal<Code, z.infer<typeof schemas.ErrorCode>>>;
export type CodeHasCatalogue = Expect<'THREAD_NOT_FOUND' extends Code ? true : false>;
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
    if (name.length > MAX_NAME) findings.push({ rule: 'long name', message: `${name} (${name.length} characters; at most ${MAX_NAME})` });
    const copy = /^(.*[A-Za-z])([2-9])$/.exec(name);
    if (copy && names.has(copy[1])) findings.push({ rule: 'numbered name', message: `${name} beside ${copy[1]}` });
  }
  return findings;
}
