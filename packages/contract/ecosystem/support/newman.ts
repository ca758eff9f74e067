// newman (the Postman collection runner) as a promise, with the parts of its summary the tests read.
import { createRequire } from 'node:module';
import { promisify } from 'node:util';

export interface NewmanSummary {
  run: {
    failures: { error: { message: string; test?: string }; source?: { name?: string } }[];
    executions: {
      item: { name: string };
      response?: { code: number };
      assertions?: { assertion: string; error?: unknown }[];
    }[];
    stats: { assertions: { total: number; failed: number }; requests: { total: number; failed: number } };
  };
}
type NewmanRun = (
  options: Record<string, unknown>,
  done: (error: Error | null, summary: NewmanSummary) => void,
) => void;

const require = createRequire(import.meta.url);
export const newmanRun = promisify((require('newman') as { run: NewmanRun }).run);

export function failuresOf(summary: NewmanSummary): string[] {
  return summary.run.failures.map((f) => `${f.source?.name ?? '?'}: ${f.error.test ?? ''} ${f.error.message}`);
}
