// Bench-only preload (`node --require scripts/bench-cpu-hook.cjs server.js`), used by
// hostile-bench.mjs and never by the servers themselves. For every HTTP request that carries an
// `x-bench-id` header it reports, over the IPC channel the bench opened, the CPU time (user +
// system, process.cpuUsage) the server process consumed between the request's arrival and the
// moment its response was finished or abandoned. CPU time, unlike wall time at the client, is
// barely moved by other processes competing for the machine's cores. It is a process-wide
// figure: work for requests interleaved with the measured one counts too, which is why the
// bench sends its hostile requests one at a time; and so does the work of the server's other
// threads (the kernel's body worker), so a body parsed off the main thread is still counted.
// Beside it, loopMs: how long the main thread (the event loop every client waits on) was busy
// over the same span (performance.eventLoopUtilization's active time: wall time, so a loaded
// machine inflates it), which is what moving work to a worker thread lowers.
'use strict';
const http = require('node:http');

if (typeof process.send === 'function') {
  process.channel?.unref(); // the channel must not keep the server alive after SIGTERM
  const emit = http.Server.prototype.emit;
  http.Server.prototype.emit = function (...args) {
    const [event, req, res] = args;
    if (event === 'request') {
      const id = req.headers['x-bench-id'];
      if (typeof id === 'string') {
        const start = process.cpuUsage();
        const loopStart = performance.eventLoopUtilization();
        const wallStart = performance.now();
        let sent = false;
        const report = () => {
          if (sent) return;
          sent = true;
          const used = process.cpuUsage(start);
          const loopMs = performance.eventLoopUtilization(loopStart).active;
          process.send({
            id,
            cpuMs: (used.user + used.system) / 1000,
            loopMs,
            serverWallMs: performance.now() - wallStart,
          });
        };
        res.once('finish', report);
        res.once('close', report);
      }
    }
    return emit.apply(this, args);
  };
}
