// The two ways in, over the same pipeline: a web Request (fetch), and node:http's request taken
// as it is (serveNode: no web Request or Response, for the requests a web Request would show
// exactly the same). Each makes the request's Exchange and writes the pipeline's Answer its way;
// HEAD gets GET's status and headers without the body (Node drops a HEAD answer's body itself).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Credentials } from './auth.js';
import { Exchange } from './exchange.js';
import { andThen, type Maybe } from './maybe.js';
import { NodeRequest, plainTarget } from './node-request.js';
import { AnswerResponse } from './node-web.js';
import type { Answer } from './pipeline.js';
import { type Target, targetOf } from './target.js';

type Pipeline<K extends Credentials> = (x: Exchange<K>) => Maybe<Answer>;
type FindKey<K> = (token: string) => K | undefined;

export function fetchAdapter<K extends Credentials>(pipeline: Pipeline<K>, findKey: FindKey<K>) {
  return (request: Request, target: Target = targetOf(request.url)): Maybe<Response> => {
    const method = request.method.toUpperCase();
    const x = new Exchange(request, method, target, () => request, findKey);
    return andThen(pipeline(x), (answer) => new AnswerResponse(answer, method === 'HEAD'));
  };
}

export interface NodeAdapterOptions<K> {
  findKey: FindKey<K>;
  /** The API's shared folder (`/v2/api/`): only paths under it come this way. */
  apiFolder: string;
  /** Paths of the server's own and web routes, left to fetch. */
  leftToFetch(pathname: string): boolean;
  /** A failure to write (a bug): reported; that connection alone ends. */
  onWriteError(request: Request, error: unknown): void;
}

/** Answers a node:http request itself (true), or leaves it to fetch (false). */
export function nodeAdapter<K extends Credentials>(pipeline: Pipeline<K>, options: NodeAdapterOptions<K>) {
  const { findKey, apiFolder, leftToFetch, onWriteError } = options;
  return (incoming: IncomingMessage, outgoing: ServerResponse): boolean => {
    const url = plainTarget(incoming, apiFolder);
    const target = url === undefined ? undefined : targetOf(`http://h${url}`);
    if (target === undefined || leftToFetch(target.pathname)) return false;
    const request = new NodeRequest(incoming);
    const x = new Exchange(request, request.method.toUpperCase(), target, () => request.toRequest(), findKey);
    const write = ({ status, headers, body }: Answer) => void outgoing.writeHead(status, headers).end(body);
    const fail = (error: unknown) => {
      onWriteError(request.toRequest(), error);
      outgoing.destroy();
    };
    try {
      const answer = pipeline(x);
      if (answer instanceof Promise) answer.then(write).catch(fail);
      else write(answer);
    } catch (error) {
      fail(error);
    }
    return true;
  };
}
