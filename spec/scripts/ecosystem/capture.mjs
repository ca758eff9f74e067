// Runs a tool in this process while catching what it prints, so that a generator's warnings count
// as findings instead of scrolling past. Console methods and both stream writes are swapped for the
// duration of one call; tools are run one after another, never concurrently.
import { format } from 'node:util';

const WARNING = /\bwarn(ing)?s?\b|⚠/i;
const ERROR = /\berror\b|✖|✗/i;

/** Lines a tool printed, sorted into errors and warnings; informational lines are kept apart. */
export async function captured(run) {
  const lines = [];
  const record =
    (level) =>
    (...args) => {
      for (const line of format(...args).split('\n')) if (line.trim()) lines.push({ level, line });
    };
  const saved = {
    log: console.log,
    info: console.info,
    warn: console.warn,
    error: console.error,
    debug: console.debug,
    out: process.stdout.write,
    err: process.stderr.write,
  };
  console.log = console.info = console.debug = record('log');
  console.warn = record('warn');
  console.error = record('error');
  process.stdout.write = (chunk, ...rest) => {
    record('log')(String(chunk));
    return callback(rest);
  };
  process.stderr.write = (chunk, ...rest) => {
    record('stderr')(String(chunk));
    return callback(rest);
  };
  let value;
  let thrown;
  try {
    value = await run();
  } catch (error) {
    thrown = error;
  } finally {
    Object.assign(console, {
      log: saved.log,
      info: saved.info,
      warn: saved.warn,
      error: saved.error,
      debug: saved.debug,
    });
    process.stdout.write = saved.out;
    process.stderr.write = saved.err;
  }
  return { value, thrown, ...classify(lines) };
}

function callback(rest) {
  const done = rest.find((arg) => typeof arg === 'function');
  if (done) done();
  return true;
}

// A line is an error when printed as one or when it says so; a warning likewise. Plain progress
// lines ("Generating…", "✔ done") are neither.
function classify(lines) {
  const errors = [];
  const warnings = [];
  const info = [];
  for (const { level, line } of lines) {
    const text = line.replace(/\u001b\[[0-9;]*m/g, '').trim();
    if (level === 'error' || ERROR.test(text)) errors.push(text);
    else if (level === 'warn' || level === 'stderr' || WARNING.test(text)) warnings.push(text);
    else info.push(text);
  }
  return { errors, warnings, info };
}
