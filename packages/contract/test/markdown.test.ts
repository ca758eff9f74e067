// --reporter markdown: report.md, as a GitHub job summary or a GitLab merge request note shows it:
// the verdict, failures grouped by check with their curl lines, the coverage figures; and nothing
// a server sends can restyle the page or break out of a curl block.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runContract } from '../src/run.js';
import { json, mutatingProxy, sandbox } from './support/servers.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const INJECTED = '</table><img src=x onerror=alert(1)> ``` # Heading | cell \u001b[2J';

describe('--reporter markdown', () => {
  it('writes the verdict, each failed check with its failures and curl lines, and the coverage figures', async () => {
    const upstream = await sandbox();
    // Answers listTags with 201 (undocumented) and puts markup in every error message.
    const broken = await mutatingProxy(upstream, {
      response: (r, q) =>
        json({ ...r, status: r.status === 200 && q.path.startsWith('/v2/api/tags') ? 201 : r.status }, (b) => {
          if (b.error)
            (b.error as Record<string, unknown>).code = `${(b.error as Record<string, unknown>).code}${INJECTED}`;
        }),
    });
    const output = mkdtempSync(join(tmpdir(), 'svc-contract-md-'));
    dirs.push(output);
    try {
      const result = await runContract({
        baseUrl: broken.url,
        apiKey: upstream.apiKey,
        config: upstream.config,
        only: ['tags'],
        rate: 'off',
        quiet: true,
        print: false,
        reporters: ['markdown'],
        output,
      });
      expect(result.exitCode).toBe(1);
      expect(result.files).toEqual([join(output, 'report.md')]);
      const md = readFileSync(join(output, 'report.md'), 'utf8');
      const failed = result.report.summary.checks.failed;
      expect(md.split('\n')[0]).toBe(`## svc-contract: ❌ FAILED: ${failed} failed checks`);
      // One heading per failed check, with its number of failures.
      const checks = [...new Set(result.report.failures.map((f) => f.check))];
      for (const check of checks)
        expect(md).toContain(`#### \`${check}\` (${result.report.failures.filter((f) => f.check === check).length})`);
      expect(md).toContain('#### `response.status-documented`');
      expect(md).toMatch(/```sh\ncurl /);
      expect(md).toContain(`| contract (statuses, codes, constraint sides) | **${result.report.coverage.percent}%** |`);
      expect(md).toContain(`| inputs (sent, rules broken alone) | **${result.report.coverage.inputs.percent}%**`);
      // The server's markup is text: no tag, no heading, no table cell, no fence of its own, no control character.
      expect(md).not.toContain('<img');
      expect(md).not.toContain('</table>');
      expect(md).toContain('&lt;img src=x onerror=alert\\(1\\)&gt;');
      expect(md).toContain('\\`\\`\\` \\# Heading \\| cell');
      expect(md).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    } finally {
      await broken.close();
      await upstream.close();
    }
  });

  it('says PASSED first when every check passed', async () => {
    const output = mkdtempSync(join(tmpdir(), 'svc-contract-md-'));
    dirs.push(output);
    const result = await runContract({
      only: ['tags'],
      rate: 'off',
      quiet: true,
      print: false,
      reporters: ['markdown'],
      output,
    });
    expect(result.exitCode).toBe(0);
    const md = readFileSync(join(output, 'report.md'), 'utf8');
    expect(md.split('\n')[0]).toBe('## svc-contract: ✅ PASSED');
    expect(md).not.toContain('### Failures by check');
    expect(md).toContain('### Coverage');
  });
});
