// The progress line: one per operation, printed once all its checks have run, never repeated
// with growing counts (an operation's scenarios may be registered after another operation's).
import { describe, expect, it } from 'vitest';
import { runContract } from '../src/run.js';

describe('progress', () => {
  it('prints each operation once, with every check it ran', async () => {
    let stderr = '';
    const result = await runContract({
      allowWrites: true,
      rate: 'off',
      print: false,
      stderr: {
        write: (chunk: string) => {
          stderr += chunk;
          return true;
        },
      } as unknown as NodeJS.WritableStream,
    });
    const lines = [...stderr.matchAll(/^ {2}[✔✘○] (\S+) +(.*)$/gm)].map((m) => [m[1] as string, m[2] as string]);
    const operations = lines.map(([op]) => op);
    expect(operations.filter((op, k) => operations.indexOf(op) !== k)).toEqual([]);
    // Each line counts what the report counts for its operation.
    for (const [op, counts] of lines) {
      const checks = result.report.operations.find((o) => o.operationId === op)?.checks ?? [];
      expect(counts, op).toContain(`${checks.filter((c) => c.status === 'passed').length} passed`);
    }
    expect(operations.length).toBe(result.report.operations.length);
  });
});
