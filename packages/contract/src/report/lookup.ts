// How a failure's request is looked up where the server keeps a log of them: a sandbox started
// apart serves what it received and answered for any request id at REQUESTS_PATH (its request
// log). The readable and markdown reports print the command beside the request id. An embedded
// sandbox stops with the run, so nothing is left to ask: no line then.
import { REQUESTS_PATH } from '@svc/spec-runtime/sandbox-config';

/** Where the run's server serves its request log, for a sandbox started apart; else undefined. */
export function requestLogOf(baseUrl: string, startedApart: boolean): string | undefined {
  return startedApart ? `${baseUrl.replace(/\/+$/, '')}${REQUESTS_PATH}` : undefined;
}

/** The command that shows what the server received and answered for a request id. */
export function lookupCommand(requestLog: string, requestId: string, keyEnv = 'SVC_API_KEY'): string {
  // Percent-encoded, and the quote the shell would end on too: the id may be the suite's own X-Request-Id.
  const id = encodeURIComponent(requestId).replaceAll("'", '%27');
  return `curl -H "Authorization: Api-Key \${${keyEnv}}" '${requestLog}/${id}'`;
}
