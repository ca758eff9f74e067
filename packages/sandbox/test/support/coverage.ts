// The coverage the behaviour suite must reach: every (operation, status, code) the contract lists
// (the API-wide answers are listed per operation), the routing answer to a URL that names no
// operation, and a success for every operation, minus what the sandbox cannot produce.
import type { Contract } from '@svc/spec-runtime';

interface Exclusion {
  operationId?: string;
  code: string;
  why: string;
}

export const CANNOT_PRODUCE: Exclusion[] = [
  { code: 'INTERNAL_SERVER_ERROR', why: 'Only a bug answers 500; every suite asserts that none happens.' },
  {
    operationId: 'getConversationItem',
    code: 'CONVERSATION_ITEM_NOT_FOUND',
    why: 'An unknown item gets the specific CALL_NOT_FOUND or TEXT_MESSAGE_NOT_FOUND, which the same 404 also lists.',
  },
  {
    operationId: 'addThreadComment',
    code: 'INVALID_REQUEST',
    why: 'Its body has one field (content), whose every violation has its own code; the only other case the contract shows, a body that is not an object, is answered INVALID_REQUEST_BODY by the sandbox, like every operation.',
  },
];

/** The one answer that belongs to no operation: a URL that names no documented path. */
export const NO_OPERATION = '- 404 ENDPOINT_NOT_FOUND';

export function expectedCoverage(contract: Contract): Set<string> {
  const expected = new Set<string>([NO_OPERATION]);
  for (const op of contract.operations) {
    for (const [status, codes] of op.codesByStatus) {
      for (const code of codes) {
        if (
          CANNOT_PRODUCE.some(
            (e) => e.code === code && (e.operationId === undefined || e.operationId === op.operationId),
          )
        )
          continue;
        expected.add(`${op.operationId} ${status} ${code}`);
      }
    }
  }
  return expected;
}

/** The operations for which no 2xx was seen. */
export function operationsWithoutSuccess(contract: Contract, seen: ReadonlySet<string>): string[] {
  return contract.operations
    .map((op) => op.operationId)
    .filter(
      (id) => ![...seen].some((entry) => /^2\d\d$/.test(entry.split(' ')[1] ?? '') && entry.startsWith(`${id} `)),
    );
}
