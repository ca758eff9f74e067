// One worker thread per contract that reads and checks large request bodies (decoding, the nesting
// scan, JSON.parse, then the whole request validated: @svc/spec-runtime's checkJsonRequest), so
// that a hostile body near the cap holds that thread for its milliseconds instead of the main
// thread every other client waits on. Started by listen(), so that its start-up (about 0.4 s of
// CPU, every validator compiled) is no request's, else on first use; ref'd only while it owes an
// answer, it never keeps an idle process alive. Should the worker die, what it held is checked on
// the main thread and the next body starts a new one.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { type BodyTask, type CheckedBody, type Contract, checkJsonRequest } from '@svc/spec-runtime';

// The built worker, also when this module runs from src (tests): the package's own export.
const workerFile = createRequire(import.meta.url).resolve('@svc/server-kernel/body-worker');

class BodyOffload {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, { task: BodyTask; resolve: (result: CheckedBody) => void }>();
  private lastId = 0;

  constructor(private readonly contract: Contract) {}

  check(task: BodyTask): Promise<CheckedBody> {
    const worker = this.started();
    const id = ++this.lastId;
    // Held (ref'd) only while it owes an answer: an idle worker never keeps the process alive.
    if (this.pending.size === 0) worker.ref();
    return new Promise((resolve) => {
      this.pending.set(id, { task, resolve });
      worker.postMessage({ id, task });
    });
  }

  started(): Worker {
    this.worker ??= this.start();
    return this.worker;
  }

  private start(): Worker {
    const worker = new Worker(workerFile, { workerData: { bundle: this.contract.bundle } });
    worker.on('message', ({ id, result }: { id: number; result: CheckedBody }) => {
      this.pending.get(id)?.resolve(result);
      this.pending.delete(id);
      if (this.pending.size === 0) worker.unref();
    });
    const died = () => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      for (const { task, resolve } of this.pending.values()) resolve(checkJsonRequest(this.contract, task));
      this.pending.clear();
    };
    worker.on('error', died);
    worker.on('exit', died);
    // After the listeners: adding a 'message' listener refs the worker's port again.
    worker.unref();
    return worker;
  }
}

const offloads = new WeakMap<Contract, BodyOffload>();

function offloadOf(contract: Contract): BodyOffload {
  let offload = offloads.get(contract);
  if (!offload) {
    offload = new BodyOffload(contract);
    offloads.set(contract, offload);
  }
  return offload;
}

/** Starts the contract's worker thread now, if it is not running. */
export function startBodyWorker(contract: Contract): void {
  offloadOf(contract).started();
}

/** Checks a body (with its request) in the contract's worker thread. */
export function checkInWorker(contract: Contract, task: BodyTask): Promise<CheckedBody> {
  return offloadOf(contract).check(task);
}
