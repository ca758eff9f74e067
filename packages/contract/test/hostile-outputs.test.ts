// Nothing secret or hostile reaches an output: credentials in a server URL are refused at start
// without being echoed; a key a server echoes in any escaped form is absent from every report file
// and the shard file; control characters a server sends are escaped in the readable output.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseCli } from '../src/options.js';
import { runContract } from '../src/run.js';
import { json, mutatingProxy, sandbox } from './support/servers.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-contract-hostile-'));
  dirs.push(dir);
  return dir;
};

/** A stream that keeps what is written to it. */
function capture(): NodeJS.WritableStream & { text: () => string } {
  let text = '';
  return {
    write: (chunk: string | Uint8Array) => {
      text += String(chunk);
      return true;
    },
    text: () => text,
  } as unknown as NodeJS.WritableStream & { text: () => string };
}

const usageError = (args: string[]) => {
  try {
    parseCli(args);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`${args.join(' ')} was accepted`);
};

describe('credentials in a server URL', () => {
  it('are refused at start, for a run and for the proxy, and never echoed', () => {
    for (const args of [
      ['--base-url', 'http://deploy:hunter2-secret@staging.example.com'],
      ['proxy', '--upstream', 'https://deploy:hunter2-secret@staging.example.com'],
      ['--base-url', 'http://:hunter2-secret@staging.example.com'],
    ]) {
      const message = usageError(args);
      expect(message).toMatch(/carries credentials/);
      expect(message).toMatch(/staging\.example\.com/);
      expect(message).not.toContain('hunter2');
      expect(message).not.toContain('deploy');
    }
    // Not a URL at all: said without repeating it either.
    expect(usageError(['--base-url', 'hunter2-secret'])).not.toContain('hunter2');
  });

  it('are refused by the library too', async () => {
    await expect(
      runContract({ baseUrl: 'http://u:hunter2-secret@127.0.0.1:1', apiKey: 'x', print: false }),
    ).rejects.toThrow(/carries credentials/);
  });
});

// A key with the characters JSON escapes, held by a config key the scope checks send.
const ODD_KEY = 'sbx_q"u\\o/te_9Zk';
const HOSTILE = '\u001b]0;owned\u0007\u001b[2K\r\u009b31m';
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

describe('what a hostile server answers', () => {
  it('leaves no key in any output, in any escaped form, and no raw control character in the readable one', async () => {
    const upstream = await sandbox();
    // Echoes the Authorization it got in every answer, in JSON with `/` written `\/` and the main
    // key's letters as \u escapes; puts control sequences in error codes and messages; fails listTags (201).
    const hostile = await mutatingProxy(upstream, {
      response: (r, q) => {
        const auth = q.headers.get('authorization') ?? '';
        const status = r.status === 200 && q.path.startsWith('/v2/api/tags') ? 201 : r.status;
        const echoed = json({ ...r, status }, (b) => {
          const error = b.error as Record<string, unknown> | undefined;
          if (error) Object.assign(error, { message: `Rejected ${auth} ${HOSTILE}`, code: `${error.code}${HOSTILE}` });
          else b.echo = `${auth} ${HOSTILE}`;
        });
        const body = echoed.body
          .replaceAll('/', '\\/')
          .replaceAll('sbx_demo_full_access', '\\u0073bx_demo_full_access');
        return { ...echoed, body };
      },
    });
    const dir = tempDir();
    const config = join(dir, 'config.json');
    writeFileSync(
      config,
      JSON.stringify({ keys: [{ name: 'odd', key: ODD_KEY, scopes: [] }], fixtures: upstream.config.fixtures }),
    );
    const stdout = capture();
    const stderr = capture();
    try {
      const result = await runContract({
        baseUrl: hostile.url,
        apiKey: upstream.apiKey,
        configPath: config,
        only: ['tags'],
        rate: 'off',
        reporters: ['json', 'junit', 'text'],
        output: join(dir, 'out'),
        shard: { index: 1, count: 1 },
        stdout,
        stderr,
      });
      expect(result.exitCode).toBe(1);
      const files = readdirSync(join(dir, 'out'));
      expect(files.sort()).toEqual(['junit.xml', 'report.json', 'report.txt', 'shard.json']);
      const everything = [stdout.text(), stderr.text(), ...files.map((f) => readFileSync(join(dir, 'out', f), 'utf8'))];
      const once = JSON.stringify(ODD_KEY).slice(1, -1);
      for (const form of [
        ODD_KEY,
        once,
        once.replaceAll('/', '\\/'),
        JSON.stringify(once).slice(1, -1),
        upstream.apiKey,
        '\\u0073bx_demo_full_access',
      ])
        for (const text of everything) expect(text).not.toContain(form);
      // The key was sent and echoed: the placeholder stands where it was.
      expect(everything.join('\n')).toContain('<redacted:odd>');
      // The readable output and the text report: every control character escaped, visibly.
      for (const text of [stdout.text(), stderr.text(), readFileSync(join(dir, 'out', 'report.txt'), 'utf8')]) {
        expect(text).not.toMatch(RAW_CONTROL);
      }
      expect(stdout.text()).toContain('got 401 API_KEY_INVALID\\x1b]0;owned\\x07\\x1b[2K\\x0d');
      expect(stdout.text()).toContain('\\x9b31m');
    } finally {
      await hostile.close();
      await upstream.close();
    }
  });
});
