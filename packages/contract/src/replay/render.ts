// The readable outcome of a replay: each failure with its answer before (from the run) and after
// (sent again, or its rule run again alone) side by side, and what the check says of each; then
// one count per outcome.
import type { Replayed, ReplayOutcome } from './outcome.js';

const WIDTH = 28;
const clip = (text: string, max = 300) => (text.length > max ? `${text.slice(0, max)}…` : text);
const answerOf = (a: { status?: number; code?: string; error?: string } | undefined) =>
  a === undefined ? '-' : a.error !== undefined ? 'no answer' : `${a.status ?? '-'}${a.code ? ` ${a.code}` : ''}`;
const row = (label: string, answer: string, says: string) => `    ${label.padEnd(7)}${answer.padEnd(WIDTH)} ${says}`;

const HEADS: Record<ReplayOutcome, string> = {
  passes: 'PASSES NOW',
  'still fails': 'STILL FAILS',
  'not replayed': 'NOT REPLAYED',
};

/** What was run again in place of one request: its rule alone, its traffic at the run's pace, or the rule that sent it. */
const AGAIN: Record<NonNullable<Replayed['again']>, { label: string; passes: string }> = {
  rule: { label: 'rule run again', passes: 'the rule, run again alone, passes' },
  pace: { label: "run again at the run's pace", passes: "the check, run again at the run's pace, passes" },
  sequence: { label: 'rule run again', passes: 'the check passes on the answers of its rule run again' },
};

function entry(r: Replayed): string[] {
  const sentBy = r.again === 'sequence' && r.rule ? ` (sent by ${clip(r.rule, 200)}, run again alone)` : '';
  const head = `  ${HEADS[r.outcome]}  ${r.check} on ${r.operationId}${r.request ? `: ${clip(r.request, 200)}` : ''}${sentBy}`;
  const before = row('before', answerOf(r.before), clip(r.before.message));
  const again = r.again === undefined ? undefined : AGAIN[r.again];
  if (r.outcome === 'not replayed')
    return [head, before, row('after', '-', `${again ? 'not run again' : 'not sent'}: ${r.reason ?? ''}`)];
  const passes = again ? again.passes : 'the check passes';
  const says = r.outcome === 'passes' ? passes : clip((r.problems ?? []).join('; ') || (r.after?.error ?? 'fails'));
  return [head, before, row('after', again && !r.after ? again.label : answerOf(r.after), says)];
}

export function renderReplay(results: readonly Replayed[]): string {
  if (results.length === 0) return 'svc-contract replay: no failures to replay\n';
  const count = (o: ReplayOutcome) => results.filter((r) => r.outcome === o).length;
  const lines = [
    `svc-contract replay: ${results.length} failure${results.length === 1 ? '' : 's'}`,
    '',
    ...results.flatMap((r) => [...entry(r), '']),
    `${count('passes')} pass now, ${count('still fails')} still fail, ${count('not replayed')} not replayed`,
    results.every((r) => r.outcome === 'passes') ? 'PASSED' : 'FAILED',
  ];
  return `${lines.join('\n')}\n`;
}
