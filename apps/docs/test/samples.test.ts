// Every code sample an integrator meets first, run as written against a fresh sandbox: the
// README's, the package READMEs' and the docs' (the curl and @svc/api-client samples of every
// operation). TypeScript samples are also type-checked as a strict consumer would compile them:
// `strict`, `exactOptionalPropertyTypes` and `noUncheckedIndexedAccess`.
//
// Only the base URL changes (the sandbox's default, http://localhost:4010, becomes the port this
// test got) and the key comes from SVC_API_KEY, as the samples say. The sandbox is reset to its
// seed before each sample, so each meets the sandbox an integrator's first `pnpm start` gives.
// The TypeScript samples run one after another in one Node process (test/support/sample-runner.mjs)
// that reports each one's exit status and output as a process of its own would.
import { type ChildProcess, fork, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type RunningSandbox, startSandboxServer } from '@svc/sandbox';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishedPackages } from '../../../scripts/published-packages.mjs';
import { CURL_LABEL, codeSamplesFor } from '../src/code-samples.js';
import { loadBundle } from '../src/load-bundle.js';
import { defaultServerUrl, listOperations, operationLabel } from '../src/openapi.js';
import { PACKAGE_DIR } from '../src/paths.js';

const ROOT = join(PACKAGE_DIR, '..', '..');
/** The READMEs an integrator (or a server team) reads: the root's and every published package's. */
const READMES = [
  'README.md',
  ...publishedPackages()
    .map(({ dir }) => `${dir}/README.md`)
    .filter((file) => existsSync(join(ROOT, file))),
];
const DEMO_KEY = 'sbx_demo_full_access';
/** What a sample sees of its environment: the key, as the samples say, and a PATH. */
const sampleEnv = { PATH: process.env.PATH ?? '/usr/bin:/bin', SVC_API_KEY: DEMO_KEY };
const bundle = loadBundle();
const SANDBOX_URL = defaultServerUrl(bundle);

interface Sample {
  name: string;
  language: 'ts' | 'curl';
  source: string;
}

/** Fenced blocks of a Markdown file: ```ts / ```js blocks, and the curl commands of ```sh blocks. */
function markdownSamples(file: string): Sample[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const samples: Sample[] = [];
  const fence = /^```(\w*)\n([\s\S]*?)^```$/gm;
  let index = 0;
  for (let match = fence.exec(text); match; match = fence.exec(text)) {
    const [, language = '', body = ''] = match;
    index++;
    if (language === 'ts' || language === 'typescript' || language === 'js')
      samples.push({ name: `${file} #${index}`, language: 'ts', source: body });
    // Shell blocks also hold install and start commands; the curl calls among them are samples.
    else if (language === 'sh' || language === 'bash') {
      for (const line of body.split('\n').filter((candidate) => candidate.trimStart().startsWith('curl '))) {
        samples.push({ name: `${file} #${index}: ${line.trim().slice(0, 60)}`, language: 'curl', source: line });
      }
    }
  }
  return samples;
}

const docsSamples: Sample[] = listOperations(bundle).flatMap((entry) =>
  codeSamplesFor(bundle, entry).map((sample) => ({
    name: `docs ${operationLabel(entry)} (${sample.label})`,
    language: sample.label === CURL_LABEL ? ('curl' as const) : ('ts' as const),
    source: sample.source,
  })),
);
const readmeSamples = READMES.flatMap(markdownSamples);
const samples = [...readmeSamples, ...docsSamples];
const tsSamples = samples.filter((sample) => sample.language === 'ts');

const WORK_DIR = join(PACKAGE_DIR, 'test-results', 'samples');
const SAMPLE_RUNNER = join(PACKAGE_DIR, 'test', 'support', 'sample-runner.mjs');
/** A sample that hangs is ended just inside the test's own limit (vitest.config.ts, sized for a
 * loaded machine), so its output still reaches the failure message. */
const SAMPLE_LIMIT_MS = 100_000;
const fileOf = (sample: Sample) => join(WORK_DIR, `sample-${samples.indexOf(sample)}.ts`);

/**
 * Runs a command without blocking: the sandbox answering it lives in this process, so a
 * synchronous spawn would wait on itself.
 */
function run(command: string, args: string[], env: Record<string, string>): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      env,
      cwd: WORK_DIR,
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: SAMPLE_LIMIT_MS,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (status) => resolve({ status, stdout, stderr }));
  });
}

interface RunResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

let runner: ChildProcess;
let runs = 0;
/** Runs one transpiled sample in the sample runner; a runner that dies fails the sample. */
function runInRunner(file: string): Promise<RunResult> {
  const id = ++runs;
  return new Promise((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      runner.off('message', onMessage);
      runner.off('exit', onExit);
    };
    const onMessage = (message: RunResult & { id: number }) => {
      if (message.id !== id) return;
      done();
      resolve(message);
    };
    const onExit = (code: number | null) => {
      done();
      reject(new Error(`the sample runner exited (${code}) while running ${file}`));
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error(`${file} did not finish in ${SAMPLE_LIMIT_MS} ms`));
    }, SAMPLE_LIMIT_MS);
    runner.on('message', onMessage);
    runner.once('exit', onExit);
    runner.send({ id, file });
  });
}

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandboxServer({ port: 0, rateLimit: false, enableReset: true });
  rmSync(WORK_DIR, { recursive: true, force: true });
  mkdirSync(WORK_DIR, { recursive: true });
  // Each sample is a module of its own (top-level await, its own imports), as a reader pastes it.
  for (const sample of tsSamples) writeFileSync(fileOf(sample), `${sample.source}\nexport {};\n`);
  runner = fork(SAMPLE_RUNNER, [], { cwd: WORK_DIR, env: sampleEnv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
});
afterAll(() => {
  runner?.kill();
  return sandbox?.close();
});

describe('the samples', () => {
  it('are found where an integrator meets them', () => {
    expect(
      readmeSamples.filter((sample) => sample.name.startsWith('README.md')).map((sample) => sample.language),
    ).toContain('ts');
    expect(
      readmeSamples.filter((sample) => sample.name.startsWith('packages/client/README.md')).length,
    ).toBeGreaterThanOrEqual(4);
    expect(readmeSamples.some((sample) => sample.language === 'curl')).toBe(true);
    expect(docsSamples.filter((sample) => sample.language === 'ts')).toHaveLength(listOperations(bundle).length);
  });

  it('type-check under strict, exactOptionalPropertyTypes and noUncheckedIndexedAccess', () => {
    const program = ts.createProgram(tsSamples.map(fileOf), {
      strict: true,
      exactOptionalPropertyTypes: true,
      noUncheckedIndexedAccess: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
      types: ['node'],
      skipLibCheck: true,
    });
    const problems = ts.getPreEmitDiagnostics(program).map((diagnostic) => {
      const sample = tsSamples.find((candidate) => diagnostic.file && fileOf(candidate) === diagnostic.file.fileName);
      return `${sample?.name ?? diagnostic.file?.fileName}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`;
    });
    expect(problems).toEqual([]);
  });

  it.each(samples.map((sample) => [sample.name, sample] as const))(
    '%s runs against a fresh sandbox',
    async (_name, sample) => {
      const reset = await fetch(`${sandbox.url}/__sandbox/reset`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Api-Key sbx_demo_full_access' },
        body: '{}',
      });
      expect(reset.status).toBe(200);
      // The sandbox's default address, however a sample spells it (localhost or 127.0.0.1), spelt
      // one way first and then replaced once: replaced twice, a port picked here that begins with
      // the default's (40107) would be matched again by the second spelling (127.0.0.1:4010).
      const source = sample.source
        .replaceAll(SANDBOX_URL.replace('localhost', '127.0.0.1'), SANDBOX_URL)
        .replaceAll(SANDBOX_URL, sandbox.url);
      if (sample.language === 'curl') {
        // A failing status fails the command (curl --fail-with-body). uuidgen may be missing here:
        // a stand-in with the same output (a fresh UUID per call).
        const prelude = [
          `command -v uuidgen >/dev/null || uuidgen() { ${JSON.stringify(process.execPath)} -p 'crypto.randomUUID()'; }`,
          'curl() { command curl --silent --show-error --fail-with-body "$@"; }',
        ].join('\n');
        const result = await run('bash', ['--noprofile', '--norc', '-e', '-c', `${prelude}\n${source}\n`], sampleEnv);
        expect(result.status, `${result.stdout}\n${result.stderr}`).toBe(0);
        return;
      }
      // TypeScript as a consumer runs it: transpiled, imports resolved from this package.
      const file = fileOf(sample).replace(/\.ts$/, '.mjs');
      writeFileSync(
        file,
        ts.transpileModule(source, {
          compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext },
        }).outputText,
      );
      const result = await runInRunner(file);
      // The samples print the error code on stderr when the call fails: nothing may reach it.
      expect({ status: result.status, stderr: result.stderr }, result.stdout).toEqual({ status: 0, stderr: '' });
    },
  );
});
