// The one reader of a server's port, for every server command (svc-sandbox, svc-mock, the docs
// server): --port first, then the command's own environment variable, then PORT, then its
// default. Digits only, 0 (any free port) to 65535: an empty value is an error, never port 0
// (Number('') is 0, which is how two earlier parsers read it).
export interface PortSources {
  /** The --port value as given (undefined: not given). */
  flag: string | undefined;
  env: Readonly<Record<string, string | undefined>>;
  /** Variables read in order after --port, e.g. ['SVC_SANDBOX_PORT', 'PORT']. */
  envNames: readonly string[];
  fallback: number;
}

export type PortChoice = { port: number; from: string } | { error: string };

function parsePort(value: string, from: string): PortChoice {
  // Digits only, so Number() gives a whole number of at least 0: only the top needs checking.
  if (!/^\d+$/.test(value) || Number(value) > 65535)
    return { error: `${from} must be an integer from 0 to 65535, got ${value === '' ? 'an empty value' : value}` };
  return { port: Number(value), from };
}

export function choosePort({ flag, env, envNames, fallback }: PortSources): PortChoice {
  if (flag !== undefined) return parsePort(flag, '--port');
  for (const name of envNames) {
    const value = env[name];
    if (value !== undefined) return parsePort(value, name);
  }
  return { port: fallback, from: 'the default' };
}

/** The --port line of a usage text, naming where the port comes from. */
export function portUsage(envNames: readonly string[], fallback: number): string {
  const from = [...envNames.map((name) => `$${name}`), String(fallback)].join(', else ');
  return `  --port <n>         Port to listen on (default: ${from}; 0 picks a free port)`;
}
