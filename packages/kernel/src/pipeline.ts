// The request's way through the kernel, as an ordered list of named steps (each in steps/, one
// job each), composed as Hono composes middleware. Every answer comes out as bytes and headers;
// a bug in any step ends as the documented 500 (and is counted), a client that hung up as 400.
import type { Credentials } from './auth.js';
import { compose } from './compose.js';
import type { Exchange } from './exchange.js';
import type { Maybe } from './maybe.js';
import { andThen } from './maybe.js';
import type { CachedAnswer } from './read-cache.js';
import type { KernelStep, Services } from './services.js';
import { answerStep } from './steps/answer.js';
import { authenticationRefusalStep, authenticationStep } from './steps/authentication.js';
import { authorizationStep } from './steps/authorization.js';
import { bodyStep } from './steps/body.js';
import { corsStep } from './steps/cors.js';
import { idempotencyStep } from './steps/idempotency.js';
import { rateCountStep, rateRefusalStep } from './steps/rate-limit.js';
import { readCacheStep } from './steps/read-cache.js';
import { requestIdStep } from './steps/request-id.js';
import { routeStep } from './steps/route.js';
import { validationStep } from './steps/validation.js';

/** The steps, in the order a request meets them. */
export function kernelSteps<K extends Credentials>(services: Services<K>): KernelStep<K>[] {
  return [
    requestIdStep(services),
    corsStep(services),
    authenticationStep(services),
    rateCountStep(services),
    routeStep(services),
    rateRefusalStep(services),
    authenticationRefusalStep(services),
    authorizationStep(services),
    idempotencyStep(services),
    bodyStep(services),
    validationStep(services),
    readCacheStep(services),
    answerStep(services),
  ];
}

/** What an adapter writes: a status, headers (a plain object, as Node takes it) and the body. */
export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string | Uint8Array<ArrayBuffer> | null;
}

export interface PipelineOptions<K extends Credentials> {
  services: Services<K>;
  steps?: KernelStep<K>[];
  /** A bug: reported here, answered with the documented 500. */
  onCrash(x: Exchange<K>, error: unknown): void;
  /** Told of every answer as it leaves the pipeline (the sandbox's request log). */
  onAnswer?: ((x: Exchange<K>, answer: Answer) => void) | undefined;
}

function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return false;
  return true;
}

export function createPipeline<K extends Credentials>(options: PipelineOptions<K>): (x: Exchange<K>) => Maybe<Answer> {
  const { services, onCrash, onAnswer } = options;
  const { names, refuse } = services;
  const run = compose(options.steps ?? kernelSteps(services));

  function toAnswer(x: Exchange<K>, response: CachedAnswer): Answer {
    const answer = answerOf(x, response);
    onAnswer?.(x, answer);
    return answer;
  }

  function answerOf(x: Exchange<K>, response: CachedAnswer): Answer {
    const headers = x.responseHeaders;
    if (response.text === null) return { status: response.status, headers, body: null };
    headers['Content-Type'] = 'application/json';
    // A client's non-ASCII X-Request-Id arrives one byte per character; Node writes a string body
    // in one piece with the headers, encoding both as UTF-8, which would encode those bytes a
    // second time. With a byte body the headers go out as the bytes that came in. (Only then: a
    // string body is the faster path for everything else.)
    const body =
      response.bytes ??
      (isAscii(headers[names.requestId] ?? '') ? response.text : new TextEncoder().encode(response.text));
    headers['Content-Length'] = String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength);
    return { status: response.status, headers, body };
  }

  function crash(x: Exchange<K>, error: unknown): Answer {
    // A client that went away is not a bug of the server, and there is no one to answer.
    if (x.incoming.signal.aborted)
      return toAnswer(
        x,
        refuse(x.requestId, {
          error: 'INVALID_REQUEST_BODY',
          message: 'The client closed the request before it was complete.',
        }),
      );
    onCrash(x, error);
    const message = `An unexpected error occurred (request ${x.requestId}).`;
    return toAnswer(x, refuse(x.requestId, { error: 'INTERNAL_SERVER_ERROR', message }));
  }

  return (x) => {
    try {
      return andThen(
        run(x),
        (response) => toAnswer(x, response),
        (error) => crash(x, error),
      );
    } catch (error) {
      return crash(x, error);
    }
  };
}
