// The baseline of the benchmark: a bare node:http server that drains each request and answers
// fixed bytes. Usage: node bare-server.mjs <status> <base64 body>; prints "listening on <url>".
import { createServer } from 'node:http';

const status = Number(process.argv[2]);
const bytes = Buffer.from(process.argv[3] ?? '', 'base64');
const headers = { 'Content-Type': 'application/json', 'Content-Length': String(bytes.length) };

const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(status, headers);
    res.end(bytes);
  });
});
server.listen(0, '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${server.address().port}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
