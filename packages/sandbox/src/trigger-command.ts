// `svc-sandbox trigger <TOPIC> --url URL [--call ID] [--seed FILE]`: builds a webhook delivery
// from the seed and POSTs it to a receiver, once, then reports the receiver's status. Exit code 0
// when the receiver acknowledged it (HTTP 200, as the contract's receivers answer), 1 otherwise,
// 2 for a usage error.
import { parseArgs } from 'node:util';
import { DEFAULT_SEED_PATH, loadSeedFile } from './seed-file.js';
import {
  callReceivedDelivery,
  describeReport,
  pickCall,
  receiverUrlProblem,
  sendDelivery,
  TRIGGERABLE_TOPICS,
} from './webhook-trigger.js';

export const TRIGGER_USAGE = `Usage: svc-sandbox trigger <topic> --url <url> [options]

Sends one webhook delivery, built from the seeded data, to your receiver and reports its answer.
Topics: ${TRIGGERABLE_TOPICS.join(', ')}.

Options:
  --url <url>     The receiver (http or https) to POST the delivery to (required)
  --call <id>     The seeded call to describe (default: the latest one)
  --seed <file>   Seed JSON to read instead of the bundled fixtures/seed.json
  -h, --help      Show this help

The delivery is what the contract shows: a POST with the JSON body { topic, body }. The signature
header, signing scheme and retry schedule are not shown, so none is sent and nothing is retried.
`;

export interface TriggerIo {
  out: (text: string) => void;
  err: (text: string) => void;
  fetch?: typeof fetch;
}

/** Runs the command; resolves to the exit code. */
/** What `run` returns, or the error it threw (a usage problem to report, not a crash). */
function attempt<T>(run: () => T): T | Error {
  try {
    return run();
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

export async function runTrigger(argv: string[], io: TriggerIo): Promise<number> {
  const usage = (message: string) => {
    io.err(`svc-sandbox trigger: ${message}\n\n${TRIGGER_USAGE}`);
    return 2;
  };
  const parsed = attempt(() =>
    parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        url: { type: 'string' },
        call: { type: 'string' },
        seed: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }),
  );
  if (parsed instanceof Error) return usage(parsed.message);
  const { values, positionals } = parsed;
  if (values.help) {
    io.out(TRIGGER_USAGE);
    return 0;
  }
  const [topic, ...extra] = positionals;
  if (topic === undefined) return usage('name a topic');
  if (extra.length > 0) return usage(`one topic at a time, got ${positionals.length}`);
  if (!(TRIGGERABLE_TOPICS as readonly string[]).includes(topic))
    return usage(`unknown topic ${JSON.stringify(topic.slice(0, 100))}; topics: ${TRIGGERABLE_TOPICS.join(', ')}`);
  if (values.url === undefined) return usage('--url is required');
  const problem = receiverUrlProblem(values.url);
  if (problem) return usage(problem);
  const seed = attempt(() => loadSeedFile(values.seed ?? DEFAULT_SEED_PATH));
  if (seed instanceof Error) return usage(seed.message);
  const team = seed.teams.find((candidate) => candidate.calls.length > 0);
  const call = team && pickCall(team, values.call);
  if (!team || !call)
    return usage(
      values.call === undefined
        ? 'the seed has no calls'
        : `no seeded call ${JSON.stringify(values.call.slice(0, 100))}`,
    );
  const report = await sendDelivery(values.url, callReceivedDelivery(team, call), call.id, io.fetch);
  io.out(`${describeReport(report)}\n`);
  return report.acknowledged ? 0 : 1;
}
