// Raw HTTP/1.1 on a fresh connection, for what fetch cannot send (bad Host lines, dot segments,
// repeated headers) or would rewrite: the whole answer as the server wrote it, in latin1.
import { connect } from 'node:net';

/** Sends `raw` (latin1 bytes), ends the client's side, and resolves the whole answer once the server closes. */
export function rawExchange(port: number, raw: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk) => (text += chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(text));
    socket.end(Buffer.from(raw, 'latin1'));
  });
}

/** An answer split into its status line, header lines and body. */
export function splitAnswer(text: string): { status: string; headers: string[]; body: string } {
  const [top = '', body = ''] = text.split('\r\n\r\n');
  const [status = '', ...headers] = top.split('\r\n');
  return { status, headers, body };
}
