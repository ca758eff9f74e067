// The worker-thread side of reading large request bodies (body-offload.ts starts it): decoding,
// the nesting scan, JSON.parse and Ajv over a body near the size cap hold a thread for
// milliseconds, and the server's main thread serves every other client. Here they hold this one.
// The contract comes from the bundle the server passes as workerData; each message is a BodyTask,
// each answer the CheckedBody of checkJsonRequest, under the task's id. Every validator is compiled
// at start, here, so that no request pays for a compilation.
import { parentPort, workerData } from 'node:worker_threads';
import { type BodyTask, checkJsonRequest, loadContract } from '@svc/spec-runtime';

const contract = loadContract((workerData as { bundle: unknown }).bundle);
contract.precompile();
parentPort?.on('message', ({ id, task }: { id: number; task: BodyTask }) =>
  parentPort?.postMessage({ id, result: checkJsonRequest(contract, task) }),
);
