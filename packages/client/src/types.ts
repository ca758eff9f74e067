import type { paths } from '@svc/api-types';
import type { Client, ClientPathsWithMethod, FetchResponse, MaybeOptionalInit } from 'openapi-fetch';

/** The HTTP methods the contract uses. */
export type SvcMethodName = 'get' | 'put' | 'post' | 'patch' | 'delete';

type MediaType = `${string}/${string}`;

/** Every path of the contract that has the given method. */
export type SvcPath<Method extends SvcMethodName> = ClientPathsWithMethod<Client<paths>, Method>;

/** Options of one request, on top of openapi-fetch's (`params`, `body`, `headers`, `signal`, …). */
export interface SvcRequestOptions {
  /** Retries for this request (overrides the client's `maxRetries`). */
  maxRetries?: number | undefined;
  /** Time limit of each attempt in milliseconds (overrides the client's `timeoutMs`; 0 for none). */
  timeoutMs?: number | undefined;
  /** Sent as `X-Request-Id`; the service then uses it as the request id (unless the headers already carry one). */
  requestId?: string | undefined;
  /** The Idempotency-Key of this write; `false` sends none (and then the write is never retried). */
  idempotencyKey?: string | false | undefined;
}

/** What the client adds to every result. */
export interface SvcResultMeta {
  /** The `X-Request-Id` of the response (else `error.request_id`, else the id the caller sent). */
  requestId: string | undefined;
  /** The Idempotency-Key the request was sent with (writes only). */
  idempotencyKey: string | undefined;
  /** `true` when the service replayed a stored response (`Idempotency-Replayed: true`) instead of executing the write again. */
  replayed: boolean;
}

/** openapi-fetch's `{ data, error, response }` union, with the client's metadata. */
export type SvcResult<Response> = Response & SvcResultMeta;

/**
 * The branch of openapi-fetch's union whose `error` is optional, i.e. the successful one. (Not
 * `Extract<…, { error?: never }>`: openapi-fetch wraps error bodies in a deferred `Readable<…>`
 * that TypeScript then cannot rule out.)
 */
/** The empty object type: what an object whose keys are all optional accepts (`{}`, spelt so the linter knows it is meant). */
type Empty = Record<never, never>;

type SuccessBranch<Response> = Response extends unknown
  ? Empty extends Pick<Response, 'error' & keyof Response>
    ? Response
    : never
  : never;

/** The successful branch of a result: `data` is present and `error` is not. */
export type SvcSuccess<Response> = SuccessBranch<Response> & SvcResultMeta;

type RequiredKeys<T> = { [K in keyof T]-?: Empty extends Pick<T, K> ? never : K }[keyof T];

/** The init argument is optional exactly when nothing in it is required (openapi-fetch's rule). */
export type InitArgument<Init> = RequiredKeys<Init> extends never ? [init?: Init] : [init: Init];

/** The typed response of one operation, as openapi-fetch computes it. */
export type OperationResponse<Method extends SvcMethodName, Path extends SvcPath<Method>, Init> = FetchResponse<
  NonNullable<paths[Path][Method]>,
  Init,
  MediaType
>;

/** A client method: the path and init are typed from the contract, the result per operation. */
export type SvcMethod<Method extends SvcMethodName, ThrowOnError extends boolean> = <
  Path extends SvcPath<Method>,
  Init extends MaybeOptionalInit<paths[Path], Method>,
>(
  url: Path,
  ...init: InitArgument<Init & SvcRequestOptions>
) => Promise<
  ThrowOnError extends true
    ? SvcSuccess<OperationResponse<Method, Path, Init>>
    : SvcResult<OperationResponse<Method, Path, Init>>
>;

type ListBody<Path extends SvcPath<'get'>> = NonNullable<OperationResponse<'get', Path, Empty>['data']>;

/** The GET paths whose response is a list (`{ data: [...], pagination }`): the ones the paginators accept. */
export type SvcListPath = {
  [Path in SvcPath<'get'>]: ListBody<Path> extends { data: readonly unknown[] }
    ? 'pagination' extends keyof ListBody<Path>
      ? Path
      : never
    : never;
}[SvcPath<'get'>];

/** One item of a list operation. */
export type SvcListItem<Path extends SvcListPath> =
  ListBody<Path> extends { data: readonly (infer Item)[] } ? Item : never;

/** One page of a list operation: the successful result, with its `{ data, pagination }` body. */
export type SvcPage<Path extends SvcListPath> = SvcSuccess<OperationResponse<'get', Path, Empty>>;

/** Options of the paginators: the list request's own (its `page` is set by the paginator) plus the caps. */
export type SvcPaginateOptions<Path extends SvcListPath> = MaybeOptionalInit<paths[Path], 'get'> &
  SvcRequestOptions & {
    /** Stop after this many items; no page beyond the one that reaches the count is fetched. */
    maxItems?: number | undefined;
    /** Stop after this many pages. */
    maxPages?: number | undefined;
  };
