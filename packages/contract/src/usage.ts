// The usage texts of svc-contract: the run's, and each subcommand's own (`svc-contract replay
// --help` prints replay's, with its flags and an example). The run's --help prints them all.
import { loadSpec } from './spec.js';
import { DEFAULT_FIXTURES_PER_KIND, DEFAULT_MAX_SKIPPED } from './tool.js';

const { readRequestsPerSecond, writeRequestsPerSecond } = loadSpec().contract.limits;

const RUN_USAGE = `Usage: svc-contract [options]

Checks a server of the Team Communications Service API against the contract (the bundled
OpenAPI document): every response, error code, scope, negative input and idempotency rule.
Without --base-url it starts an embedded sandbox (the reference server) and checks that.

Options:
  --base-url <url>       The server to check (default: an embedded sandbox on 127.0.0.1)
  --api-key <key>        Its API key (default: $SVC_API_KEY; the sandbox's demo key when embedded)
  --config <file>        JSON: extra keys with their scopes (403 checks) and fixtures
  --allow-writes         Create, change and delete data (off: nothing is written)
  --profile <name>       full (stateful servers, default) or mock (stateless, e.g. a Prism mock)
  --only <filter>        A resource (threads), an operationId (createThread) or a check
                         (auth.insufficient-scope) or check group (negative); repeatable or a,b
  --reporter <name>      Report files to write: json, junit, text, markdown, har (every exchange
                         of the run as HAR 1.2, report.har; a run only); repeatable or a,b
  --output <dir>         Where report files go (default ./svc-contract-report)
  --export-failures <dir>  One runnable sh script per failure (curl; exit 0 on the documented
                         answer, 1 on another; keys from the environment) and failures.txt
  --rate <r/w|off>       Requests per second, reads/writes (default: the contract's ${readRequestsPerSecond}/${writeRequestsPerSecond})
  --burst                Also send a burst over the read limit and expect 429s (with
                         --allow-writes, over the write limit too)
  --shared-key           Other clients (other shard jobs) use the key too: 429s are waited out;
                         without it a 429 within the run's own budget fails response.rate-limit-budget
  --timeout <ms>         Time limit of each request, body included (default 30000)
  --max-response-bytes <n>  Largest response body read (default 10485760)
  --max-skipped <n>      Fail when more than n checks are skipped for want of configuration
                         (a fixture, a key) or not exercised (a precondition never reached);
                         default ${DEFAULT_MAX_SKIPPED}. Skips the options cause are not counted
  --min-input-coverage <pct>  Fail below this share of documented inputs sent and rules broken
                         alone (default 100 with --profile full --allow-writes and no --only, else 0)
  --fixtures-per-kind <n>  Fixtures of each kind (items, lines, ...) used at most (default ${DEFAULT_FIXTURES_PER_KIND})
  --shard <i/n>          Run job i of n: a deterministic share of the checks (whole resources),
                         and write the shard file --output holds for \`svc-contract merge\`
  --quiet                No progress lines
  -h, --help             This help
  -v, --version          The version

Exit status: 0 every check passed (skips within --max-skipped, input coverage at least
--min-input-coverage), 1 a check failed, too many were skipped or too few inputs exercised,
2 usage or config error.

`;

const PROXY_SYNOPSIS = `svc-contract proxy --upstream <url> [--port <n>] [--host <h>] [--reporter ...] [--output <dir>]
                          [--timeout <ms>] [--max-response-bytes <n>]`;

const PROXY_ABOUT = `A validating proxy: relays any traffic to --upstream and checks every exchange against the
contract (the response checks, and the documented error for a request the contract refuses).
Bodies are relayed whole; a response past --max-response-bytes is relayed but not checked.
At SIGINT or SIGTERM it prints and writes the same reports. Default --port 0 (a free port).`;

const PROXY_OPTIONS = `Options:
  --upstream <url>       The server traffic is relayed to (required)
  --port <n>             Where the proxy listens (default 0: a free port, printed at start)
  --host <h>             The address it listens on (default 127.0.0.1)
  --reporter <name>      Report files to write at the end: json, junit, text, markdown; repeatable or a,b
  --output <dir>         Where report files go (default ./svc-contract-report)
  --timeout <ms>         Time limit of each relayed request (default 30000)
  --max-response-bytes <n>  Largest response body checked (default 10485760)
  --quiet                No progress lines
  -h, --help             This help

Example:
  svc-contract proxy --upstream https://api.example.com --port 8080 --reporter json`;

const MERGE_SYNOPSIS = 'svc-contract merge <dir>... [--reporter ...] [--output <dir>]';

const MERGE_ABOUT = `Combines the shard files of the jobs of a --shard i/n matrix (each job's --output dir) into one
report, written and printed as a single run's, and exits as that run would: 1 on any failed
check, on too many skips or on input coverage (over the union) below the run's gate. Every shard
1..n must be given exactly once.`;

const MERGE_OPTIONS = `Arguments:
  <dir>...               The --output dir of each shard job (each holds its shard file)

Options:
  --reporter <name>      Report files to write: json, junit, text, markdown; repeatable or a,b
  --output <dir>         Where the merged report goes (default ./svc-contract-report)
  -h, --help             This help

Example:
  svc-contract merge shard-1 shard-2 shard-3 --reporter json,junit --output merged`;

const REPLAY_SYNOPSIS = `svc-contract replay <report.json|shard.json|dir>... [--check <id>] [--operation <id>]
                           [--base-url <url>] [--allow-writes] [--config <file>] [--json]
                           [--timeout <ms>]`;

const REPLAY_ABOUT = `Sends each failing request of a run again (a dir: every report and shard JSON in it) and judges
the answer with the same check: a per-exchange check is called again; a scenario rule by the
answer it expected. A rule that judged a state (a write read back, a key used again) is run
again alone on its operation, as a run runs it (fixtures, preconditions, undo; --config is the
run's config file), and its verdict there is the replay's. A failure of the run's pace (a rate
window, the run's own budget, any 429) is replayed by running its rule again alone (a check of
every answer: its operation's checks), paced at the rate and --burst the report recorded. Prints
each answer before and after. Keys come from the environment (SVC_API_KEY, a config key's
key_env, else SVC_KEY_<NAME>), never from the file; the server is --base-url, else the run's. A
request or rule that may change data is replayed only with --allow-writes.`;

const REPLAY_OPTIONS = `Arguments:
  <report.json|shard.json|dir>...  A run's report.json, a shard job's shard.json, or a folder of them

Options:
  --check <id>           Only the failures of this check or group (negative); repeatable or a,b
  --operation <id>       Only the failures on this operationId; repeatable or a,b
  --base-url <url>       The server to send to (default: the run's; required for an embedded sandbox's run)
  --allow-writes         Replay requests and rules that may change data
  --config <file>        The run's config file (keys by key_env, fixtures), for the rules run again
  --json                 Print the outcomes as JSON
  --timeout <ms>         Time limit of each request (default 30000)
  -h, --help             This help

Example:
  SVC_API_KEY=... svc-contract replay svc-contract-report/report.json --check auth --base-url http://127.0.0.1:4010`;

const REPLAY_EXIT = 'Exit status: 0 every failure selected was replayed and passes, 1 otherwise, 2 usage error.';

/** A subcommand's own usage: its synopsis, what it does, its arguments and flags, an example. */
const own = (synopsis: string, about: string, options: string, exit = '') =>
  `Usage: ${synopsis}\n\n${about}\n\n${options}\n${exit ? `\n${exit}\n` : ''}`;

export const PROXY_USAGE = own(PROXY_SYNOPSIS, PROXY_ABOUT, PROXY_OPTIONS);
export const MERGE_USAGE = own(MERGE_SYNOPSIS, MERGE_ABOUT, MERGE_OPTIONS);
export const REPLAY_USAGE = own(REPLAY_SYNOPSIS, REPLAY_ABOUT, REPLAY_OPTIONS, REPLAY_EXIT);

/** The whole usage (`svc-contract --help`): the run's, then each subcommand's synopsis and what it does. */
export const USAGE = [
  RUN_USAGE,
  ...[
    [PROXY_SYNOPSIS, PROXY_ABOUT],
    [MERGE_SYNOPSIS, MERGE_ABOUT],
    [REPLAY_SYNOPSIS, `${REPLAY_ABOUT}\n${REPLAY_EXIT}`],
  ].map(([synopsis, about]) => `       ${synopsis}\n\n${about}\n`),
  'Each subcommand prints its own options and an example with --help (svc-contract replay --help).\n',
].join('\n');

/** The usage a command line's help or usage error prints: its subcommand's own, else the whole one. */
export function usageOf(argv: readonly string[]): string {
  const sub = { proxy: PROXY_USAGE, merge: MERGE_USAGE, replay: REPLAY_USAGE }[argv[0] ?? ''];
  return sub ?? USAGE;
}
