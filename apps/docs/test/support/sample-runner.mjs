// One Node process that runs the TypeScript samples (transpiled to .mjs) one after another for
// test/samples.test.ts, which sends it `{ id, file }` over IPC and gets back
// `{ id, status, stdout, stderr }`: what a process of its own per sample would have given (exit
// status, output), without starting Node and loading the client for each sample, nor waiting at
// each exit for the client's timers to run out (about a second a sample).
//
// A sample counts as finished when its module has run (top-level await included) and the I/O it
// started is over, so late output or a late failure is still its own. A thrown error or an
// unhandled rejection fails it with exit status 1, as Node would; a sample that sets
// process.exitCode gets that status. The samples share the loaded client module, as they would
// share nothing else: each creates its own client.
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';

/** The sample being run: its output so far and its exit status. */
let current;

/** Output while a sample runs is the sample's; otherwise it goes where it would have. */
function capture(stream, key) {
  const write = stream.write.bind(stream);
  stream.write = (chunk, encoding, callback) => {
    if (!current) return write(chunk, encoding, callback);
    current[key] += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString();
    (typeof encoding === 'function' ? encoding : callback)?.();
    return true;
  };
}
capture(process.stdout, 'stdout');
capture(process.stderr, 'stderr');

function fail(error) {
  if (!current) throw error;
  current.status = 1;
  current.stderr += `${error?.stack ?? error}\n`;
}
process.on('uncaughtException', fail);
process.on('unhandledRejection', fail);

/** Resources that are not timers: sockets, file and DNS requests. Timers are the client's own. */
const pendingIo = () =>
  process.getActiveResourcesInfo().filter((type) => type !== 'Timeout' && type !== 'Immediate').length;
const idleIo = pendingIo();

process.on('message', async ({ id, file }) => {
  current = { status: 0, stdout: '', stderr: '' };
  try {
    // The run's id in the URL: a file sent twice runs twice, as a second `node file` would.
    await import(`${pathToFileURL(file).href}?run=${id}`);
  } catch (error) {
    fail(error);
  }
  while (pendingIo() > idleIo) await sleep(5);
  if (process.exitCode) current.status = Number(process.exitCode);
  process.exitCode = undefined;
  const { status, stdout, stderr } = current;
  current = undefined;
  process.send({ id, status, stdout, stderr });
});
