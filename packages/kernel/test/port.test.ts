// The one port reader of the server commands: --port, then the command's variables in order,
// then the default; digits only from 0 to 65535, and an empty value an error, never port 0.
import { describe, expect, it } from 'vitest';
import { choosePort, portUsage } from '../src/cli/port.js';

const envNames = ['SVC_SANDBOX_PORT', 'PORT'];
const choose = (flag: string | undefined, env: Record<string, string> = {}) =>
  choosePort({ flag, env, envNames, fallback: 4010 });

describe('choosePort', () => {
  it('takes --port, else the first variable set, else the default', () => {
    expect(choose('5000', { SVC_SANDBOX_PORT: '5001', PORT: '5002' })).toEqual({ port: 5000, from: '--port' });
    expect(choose(undefined, { SVC_SANDBOX_PORT: '5001', PORT: '5002' })).toEqual({
      port: 5001,
      from: 'SVC_SANDBOX_PORT',
    });
    expect(choose(undefined, { PORT: '0' })).toEqual({ port: 0, from: 'PORT' });
    expect(choose(undefined)).toEqual({ port: 4010, from: 'the default' });
  });

  it('refuses an empty value, wherever it comes from, instead of reading it as port 0', () => {
    expect(choose('')).toEqual({ error: '--port must be an integer from 0 to 65535, got an empty value' });
    expect(choose(undefined, { PORT: '' })).toEqual({
      error: 'PORT must be an integer from 0 to 65535, got an empty value',
    });
  });

  it.each(['http', '-1', '65536', '1e3', ' 80', '80.0', '0x50'])('refuses %j', (value) => {
    expect(choose(value)).toEqual({ error: `--port must be an integer from 0 to 65535, got ${value}` });
  });

  it('says in the usage where the port comes from', () => {
    expect(portUsage(envNames, 4010)).toBe(
      '  --port <n>         Port to listen on (default: $SVC_SANDBOX_PORT, else $PORT, else 4010; 0 picks a free port)',
    );
  });
});
