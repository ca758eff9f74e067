// What validating untrusted or server-sent JSON costs, as a ratio to JSON.parse of the same bytes
// (issue 36): webhook deliveries that break their schema in every item of a large array (100 KB,
// 1 MB, 10 MB), and a thread of 20 000 invalid comments checked as svc-contract checks an answer
// (its `run` and its proxy both call checkResponse). Ajv's allErrors made these quadratic (6.4 s
// for 100 KB, 94 s for 5 MB, 5.8 s for the thread); the validators now stop at a bounded number
// of problems. Target: at most VALIDATION_TARGET times JSON.parse, valid or not, at any size.
// Measured in this process, the median of a few repetitions. Run by scripts/hostile-bench.mjs.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** At most this many times JSON.parse of the same bytes. */
export const VALIDATION_TARGET = 3;

/** `{"topic":"CALL_RECEIVED","body":{"transcriptions":[…]}}` of about `bytes` bytes, every item invalid (or every one valid). */
export function invalidDelivery(bytes, valid = false) {
  const item = valid
    ? '{"source":"AGENT","time":"2026-03-02T09:30:04Z","text":"Hi Jordan, this is Dana."}'
    : '{"source":"NOBODY","time":"never","text":1}';
  const count = Math.max(1, Math.floor(bytes / (item.length + 1)));
  return `{"topic":"CALL_RECEIVED","body":{"transcriptions":[${Array(count).fill(item).join(',')}]}}`;
}

/** A getThread answer whose 20 000 comments all break ThreadComment (176 KB): `{"id":1}` each. */
export function invalidThread(comments = 20_000) {
  return `{"data":{"id":"cth-5Lm1zX7e","comments":[${Array(comments).fill('{"id":1}').join(',')}]}}`;
}

function medianMs(work, repeat) {
  const times = [];
  for (let i = 0; i < repeat; i++) {
    const start = performance.now();
    work();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

const kb = (text) =>
  text.length >= 1e6 ? `${Math.round(text.length / 1e6)} MB` : `${Math.round(text.length / 1e3)} KB`;
const round = (n) => Math.round(n * 100) / 100;

/** One row per case: the validation's time beside JSON.parse's, and their ratio. */
export async function validationCost(root) {
  const { parseWebhook } = await import(pathToFileURL(join(root, 'packages/client/dist/webhooks.js')).href);
  const { loadContract } = await import(pathToFileURL(join(root, 'packages/spec-runtime/dist/index.js')).href);
  const contract = loadContract(JSON.parse(readFileSync(join(root, 'spec/dist/openapi.json'), 'utf8')));
  const getThread = contract.operationsById.get('getThread');
  const headers = { 'content-type': 'application/json' };
  const cases = [
    ...[100_000, 1_000_000, 10_000_000].map((bytes) => {
      const text = invalidDelivery(bytes);
      return { name: `parseWebhook of an invalid ${kb(text)} delivery`, text, run: () => parseWebhook(text) };
    }),
    (() => {
      const text = invalidDelivery(1_000_000, true);
      return { name: `parseWebhook of a valid ${kb(text)} delivery`, text, run: () => parseWebhook(text) };
    })(),
    (() => {
      const text = invalidThread();
      return {
        name: `checkResponse of a getThread answer of 20 000 invalid comments (${kb(text)})`,
        text,
        run: () => contract.checkResponse(getThread, 200, headers, JSON.parse(text)),
      };
    })(),
  ];
  return cases.map(({ name, text, run }) => {
    run(); // compiles what is compiled on first use
    const repeat = text.length > 5e6 ? 3 : 9;
    const parse = medianMs(() => JSON.parse(text), repeat);
    const validate = medianMs(run, repeat);
    return {
      case: name,
      'validation ms': round(validate),
      'JSON.parse ms': round(parse),
      ratio: round(validate / parse),
    };
  });
}
