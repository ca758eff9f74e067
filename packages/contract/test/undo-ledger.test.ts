// The undo ledger alone: each thing read once, before its first write; played back newest first;
// an undo that throws is reported with the check that wrote, and the others still run.
import { describe, expect, it } from 'vitest';
import type { ApiRequest } from '../src/http/exchange.js';
import { type Undo, UndoLedger } from '../src/undo-ledger.js';

const write = (path: string): ApiRequest => ({ method: 'PATCH', path });

describe('UndoLedger', () => {
  it('reads each thing once, before its first write, and puts things back newest first', async () => {
    const reads: string[] = [];
    const putBack: string[] = [];
    const ledger = new UndoLedger((request) => ({
      key: request.path,
      read: async (): Promise<Undo> => {
        reads.push(request.path);
        const undo = async () => {
          putBack.push(request.path);
          return [];
        };
        return { what: request.path, putBack: undo };
      },
    }));
    ledger.during({ check: 'a.check', operationId: 'op' });
    for (const path of ['/one', '/two', '/one', '/three', '/two']) await ledger.beforeWrite(write(path));
    expect(reads).toEqual(['/one', '/two', '/three']);
    expect(await ledger.playBack()).toEqual([]);
    expect(putBack).toEqual(['/three', '/two', '/one']);
    expect(ledger.size).toBe(0);
  });

  it('reports an undo that throws as a failure of the check that wrote, and plays back the rest', async () => {
    const putBack: string[] = [];
    const ledger = new UndoLedger((request) => ({
      key: request.path,
      read: async (): Promise<Undo> => ({
        what: `the thing at ${request.path}`,
        putBack: async () => {
          if (request.path === '/broken') throw new Error('socket hang up');
          putBack.push(request.path);
          return [];
        },
      }),
    }));
    ledger.during({ check: 'first.check', operationId: 'opA' });
    await ledger.beforeWrite(write('/fine'));
    ledger.during({ check: 'second.check', operationId: 'opB' });
    await ledger.beforeWrite(write('/broken'));
    const failures = await ledger.playBack();
    expect(failures).toEqual([
      { check: 'second.check', operationId: 'opB', message: 'the thing at /broken was not put back: socket hang up' },
    ]);
    expect(putBack).toEqual(['/fine']);
  });

  it('registers nothing for a thing there is nothing to put back of, and reads no write made while playing back', async () => {
    let reads = 0;
    const ledger: UndoLedger = new UndoLedger((request) => ({
      key: request.path,
      read: async () => {
        reads++;
        if (request.path === '/gone') return undefined;
        const putBack = async () => {
          await ledger.beforeWrite(write('/during-playback'));
          return [];
        };
        return { what: 'x', putBack };
      },
    }));
    await ledger.beforeWrite(write('/gone'));
    expect(ledger.size).toBe(0);
    await ledger.beforeWrite(write('/here'));
    expect(await ledger.playBack()).toEqual([]);
    expect(reads).toBe(2);
  });
});
