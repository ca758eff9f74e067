// The sandbox's JavaScript per request, without sockets: its node:http handler (serveNode) is
// handed stand-ins for Node's request and response, so the figure is the kernel's pipeline, the
// handlers and the request log alone, which no other process's load shares. What the throughput
// bench (sandbox.bench.mjs) cannot tell apart, this can: run it with and without the request log,
// or under `node --cpu-prof`, to see where a request's time goes. Not a test, not part of
// `pnpm bench`: `node bench/in-process.mjs [read|write] [requests] [--no-log]` after a build.
import { EventEmitter } from 'node:events';
import { PerformanceObserver } from 'node:perf_hooks';
import { createSandbox } from '../dist/index.js';

const [scenario = 'read', count = '100000'] = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
const requests = Number(count);
const withLog = !process.argv.includes('--no-log');
const sandbox = createSandbox({ rateLimit: false, ...(withLog ? {} : { requestLog: false }) });
const auth = 'Api-Key sbx_demo_full_access';
let keys = 0;

/** What serveNode reads of Node's request: headers, raw headers, method, url, and the body's events. */
function incoming() {
  const request = new EventEmitter();
  const read = scenario === 'read';
  request.headers = read
    ? { host: '127.0.0.1:1', authorization: auth }
    : {
        host: '127.0.0.1:1',
        authorization: auth,
        'content-type': 'application/json',
        'idempotency-key': `in-process-${++keys}`,
        'content-length': '17',
      };
  request.rawHeaders = Object.entries(request.headers).flat();
  request.method = read ? 'GET' : 'PUT';
  request.url = read ? '/v2/api/threads/cth-5Lm1zX7e' : '/v2/api/conversations/%2B14155550123/action';
  request.destroyed = false;
  request.complete = false;
  if (!read)
    queueMicrotask(() => {
      request.emit('data', Buffer.from('{"action":"READ"}'));
      request.complete = true;
      request.emit('end');
    });
  return request;
}

let failures = 0;
function answered(done) {
  return {
    writeHead(status) {
      if (status >= 300) failures++;
      return this;
    },
    end: done,
    destroy() {
      throw new Error('serveNode destroyed the response: a bug');
    },
  };
}

async function run(times) {
  for (let i = 0; i < times; i++)
    await new Promise((done) => {
      if (!sandbox.serveNode(incoming(), answered(done))) throw new Error('serveNode left the request to fetch');
    });
}

await run(20_000); // warm-up: the JIT's, not the figure's
let collections = 0;
let collectionMs = 0;
const observer = new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    collections++;
    collectionMs += entry.duration;
  }
});
observer.observe({ entryTypes: ['gc'] });
const cpuBefore = process.cpuUsage();
await run(requests);
const cpu = process.cpuUsage(cpuBefore);
await new Promise((resolve) => setTimeout(resolve, 50)); // the observer is told after the fact
observer.disconnect();
console.log(
  `${scenario}, request log ${withLog ? 'on' : 'off'}: ${((cpu.user + cpu.system) / requests).toFixed(2)} µs of CPU a request ` +
    `(garbage-collection pauses: ${((collectionMs * 1000) / requests).toFixed(2)} µs a request, ${collections} of them), ` +
    `${failures} answers not 2xx`,
);
if (failures > 0) process.exitCode = 1;
