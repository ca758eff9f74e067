// startProxy and runProxy used as a library check the upstream URL as the CLI's --upstream does:
// credentials in it, or no http(s) URL at all, are refused before anything listens, and the
// message never repeats what was given.
import { describe, expect, it } from 'vitest';
import { startProxy } from '../src/proxy.js';
import { runProxy } from '../src/proxy-run.js';
import { UsageError } from '../src/tool.js';

const SECRET = 's3cret-pa55';
const given = [`http://admin:${SECRET}@127.0.0.1:4010`, `https://${SECRET}@staging.example`, `ftp://x:${SECRET}@h`];

describe('the upstream given in code', () => {
  it.each(given)('is refused by startProxy without echoing it (%#)', async (upstream) => {
    const refused = await startProxy({ upstream }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(UsageError);
    expect((refused as Error).message).toMatch(/^upstream (carries credentials|must be an http\(s\) URL)/);
    expect((refused as Error).message).not.toContain(SECRET);
  });

  it('is refused by runProxy before it prints or listens', async () => {
    const written: string[] = [];
    const sink = { write: (text: string) => written.push(text) } as unknown as NodeJS.WritableStream;
    const refused = runProxy({ upstream: given[0] as string, stdout: sink, stderr: sink, until: Promise.resolve() });
    await expect(refused).rejects.toThrow(
      'upstream carries credentials (user:password@), which would show in every curl line and report: give http://127.0.0.1:4010 without them (the API key goes in SVC_API_KEY)',
    );
    expect(written).toEqual([]);
  });
});
