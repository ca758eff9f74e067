// The server a run or the proxy talks to is named by a URL given on the command line or in code.
// A URL with credentials in it (http://user:pass@host) would put them in every curl line, progress
// line and report file: it is refused at start, and the message never repeats what was given
// (it may be a password); at most the URL's origin without its credentials is named.

const HTTP_URL = /^https?:\/\/\S+$/;

/** Why `value` cannot name the server (not an http(s) URL, or credentials in it), without echoing it; undefined when it can. */
export function serverUrlProblem(option: string, value: string): string | undefined {
  const parsed = HTTP_URL.test(value) && URL.canParse(value) ? new URL(value) : undefined;
  if (!parsed) return `${option} must be an http(s) URL (what was given is not repeated: it may hold a secret)`;
  if (parsed.username === '' && parsed.password === '') return undefined;
  parsed.username = '';
  parsed.password = '';
  return `${option} carries credentials (user:password@), which would show in every curl line and report: give ${parsed.origin} without them (the API key goes in SVC_API_KEY)`;
}
