// The start-up the servers' command lines share (svc-sandbox, svc-mock): options read strictly,
// usage errors answered with the usage and exit code 2, --help, the port checked, a crash reported
// with its stack (exit 1) and a clean stop on SIGINT or SIGTERM.
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { choosePort } from './port.js';

type Options = NonNullable<ParseArgsConfig['options']>;
type Values<O extends Options> = ReturnType<typeof parseArgs<{ args: string[]; options: O; strict: true }>>['values'];

export class Cli {
  constructor(
    private readonly name: string,
    private readonly usage: string,
  ) {}

  fatal(message: string): never {
    process.stderr.write(`${this.name}: ${message}\n\n${this.usage}`);
    process.exit(2);
  }

  /** The options given (-h/--help added), or undefined once --help has printed the usage. */
  parse<O extends Options>(args: string[], options: O): Values<O> | undefined {
    // `pnpm start -- --port 5000` hands the script a leading `--` (npm habits): skip it.
    const given = args[0] === '--' ? args.slice(1) : args;
    let values: { help?: boolean };
    try {
      values = parseArgs({
        args: given,
        options: { ...options, help: { type: 'boolean', short: 'h' } },
        strict: true,
      }).values;
    } catch (error) {
      this.fatal((error as Error).message);
    }
    if (!values.help) return values as Values<O>;
    process.stdout.write(this.usage);
    return undefined;
  }

  /** The port from --port, else the environment variables named, else the default (see port.ts). */
  port(flag: string | undefined, envNames: readonly string[], fallback: number): number {
    const choice = choosePort({ flag, env: process.env, envNames, fallback });
    if ('error' in choice) this.fatal(choice.error);
    return choice.port;
  }

  /** Runs the command; an unexpected error prints its stack and exits 1. */
  run(main: () => Promise<void>): void {
    main().catch((error: unknown) => {
      process.stderr.write(`${this.name}: ${(error as Error).stack ?? String(error)}\n`);
      process.exit(1);
    });
  }

  /** Closes the server on SIGINT or SIGTERM, then exits 0. */
  stopOnSignal(running: { close(): Promise<void> }): void {
    const stop = () => {
      running.close().finally(() => process.exit(0));
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  }
}
