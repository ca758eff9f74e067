#!/usr/bin/env node
// The pack test: are the published packages usable as published, installed as the READMEs say?
// Packs every published package with `pnpm release:pack`'s own function (`pnpm pack`, which
// rewrites workspace:* to versions) into a temporary folder, then runs each distinct install
// command of the READMEs' install sections (`npm install "$SVC_PACKS"/...`, the root README's and
// every published package's) as written, in an empty project of its own outside the workspace,
// with SVC_PACKS set to that folder. Then, as an integrator would:
//   - in the project of the client's command (client and types only), type-checks and compiles a
//     consumer of @svc/api-client and @svc/api-types (strict, NodeNext), whose @ts-expect-error
//     lines fail the check if the published types degrade, and runs it against the sandbox;
//   - in the project of the command that installs every tarball, starts the sandbox from the
//     installed `svc-sandbox` bin and runs the installed `svc-contract` bin: --help, --version,
//     and a short contract run (threads) against that sandbox;
//   - prints @svc/contract's install size: what `npx @svc/contract` brings in, measured in a
//     project that installs its tarball alone (npm `overrides` point its @svc/* dependencies at
//     the tarballs, as the registry would serve them).
//   - fails when every published package, installed together (the README's install-everything
//     command) into an empty project, takes more than 12 MB (apparent sizes of node_modules).
// Needs the packages built (`pnpm build`); `pnpm test` runs it after turbo. Prints each step and
// `N passed, M failed`; exits 1 on any failure. The temporary folders and the sandbox never
// outlive it. Set SVC_PACK_TEST_KEEP=1 to keep the temporary folder for a look.
import { execFile, spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { promisify } from 'node:util';
import { publishedPackages, root } from './published-packages.mjs';
import { packInto } from './release-pack.mjs';

const TYPESCRIPT = '5.9.3';
const TYPES_NODE = '20.19.43';
const DEMO_KEY = 'sbx_demo_full_access';
const NPM_FLAGS = ['--no-audit', '--no-fund', '--loglevel=error', '--prefer-offline'];

const started = Date.now();
const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(1)}s`;

// ---------------------------------------------------------------------------------------------
// Housekeeping: one temporary folder, one sandbox process, both gone on every way out.

const work = realpathSync(mkdtempSync(join(tmpdir(), 'svc-pack-test-')));
const tarballs = join(work, 'tarballs');
mkdirSync(tarballs);
const children = new Set();
let cleanedUp = false;

function cleanup() {
  if (cleanedUp) return;
  cleanedUp = true;
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  children.clear();
  if (process.env.SVC_PACK_TEST_KEEP) process.stdout.write(`kept ${work}\n`);
  else rmSync(work, { recursive: true, force: true });
}
process.on('exit', cleanup);
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    cleanup();
    process.exit(130);
  });
}

/** Runs a command; resolves `{ code, stdout, stderr }` (never rejects on a non-zero exit). */
async function run(command, args, { cwd, env, timeoutMs = 120_000 } = {}) {
  const pending = promisify(execFile)(command, args, {
    cwd,
    env: { ...process.env, ...env },
    timeout: timeoutMs,
    killSignal: 'SIGKILL',
    maxBuffer: 64 * 1024 * 1024,
  });
  children.add(pending.child);
  try {
    return { code: 0, ...(await pending) };
  } catch (error) {
    // A string code (ENOENT, ERR_CHILD_PROCESS_STDIO_MAXBUFFER): the command could not run as asked.
    if (typeof error.code === 'string') throw new Error(`${command}: ${error.message}`);
    return {
      code: error.code ?? (error.signal ? `killed by ${error.signal}` : 1),
      stdout: error.stdout,
      stderr: error.stderr,
    };
  } finally {
    children.delete(pending.child);
  }
}

const writeJson = (path, value) => writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);

function ok(result, what) {
  if (result.code !== 0) throw new Error(`${what} exited ${result.code}\n${indent(result.stderr || result.stdout)}`);
  return result;
}

const indent = (text) =>
  text
    .trim()
    .split('\n')
    .slice(-40)
    .map((line) => `      ${line}`)
    .join('\n');

function expectMatch(text, pattern, what) {
  if (!pattern.test(text)) throw new Error(`${what}: expected ${pattern}, got:\n${indent(text)}`);
}

// ---------------------------------------------------------------------------------------------
// Steps: each prints its outcome; a step whose prerequisites did not pass is skipped.

let passed = 0;
let failed = 0;
let skipped = 0;
const done = new Set();

async function step(id, name, needs, fn) {
  const missing = needs.filter((need) => !done.has(need));
  if (missing.length > 0) {
    skipped += 1;
    process.stdout.write(`- ${name}: skipped (needs ${missing.join(', ')})\n`);
    return;
  }
  const t0 = Date.now();
  try {
    const detail = await fn();
    passed += 1;
    done.add(id);
    process.stdout.write(`✓ ${name}${detail ? `: ${detail}` : ''} (${seconds(t0)})\n`);
  } catch (error) {
    failed += 1;
    process.stdout.write(`✗ ${name} (${seconds(t0)})\n    ${error instanceof Error ? error.message : String(error)}\n`);
  }
}

// ---------------------------------------------------------------------------------------------

const packages = publishedPackages();
const names = packages.map((p) => p.manifest.name);
const tarballOf = new Map();
const bundlePath = join(root, 'spec', 'dist', 'openapi.json');
if (!existsSync(bundlePath)) {
  process.stderr.write('pack test: spec/dist/openapi.json is missing; run `pnpm build` first\n');
  process.exit(1);
}
const specVersion = JSON.parse(readFileSync(bundlePath, 'utf8')).info.version;

process.stdout.write(`pack test: ${names.length} published packages (${names.join(', ')}) in ${work}\n`);

await step('outside', 'the temporary folder is outside the workspace', [], () => {
  const rel = relative(root, work);
  if (!rel.startsWith(`..${sep}`) && rel !== '..') throw new Error(`${work} is inside ${root}: set TMPDIR elsewhere`);
  return work;
});

/** Every file a manifest points at (exports, bin, types, main), as a path inside the package. */
function manifestTargets(manifest) {
  const targets = new Set();
  const add = (value) => {
    if (typeof value === 'string') {
      if (!value.includes('*')) targets.add(value.replace(/^\.\//, ''));
    } else if (value && typeof value === 'object') for (const v of Object.values(value)) add(v);
  };
  add([manifest.exports, manifest.bin, manifest.types, manifest.main]);
  return [...targets];
}

await step('pack', `pnpm release:pack's packing: ${names.length} packages`, [], async () => {
  const packed = await packInto(tarballs);
  const results = packed.map(({ name, filename, files }) => {
    const manifest = packages.find((p) => p.manifest.name === name).manifest;
    const missing = manifestTargets(manifest).filter((target) => !files.includes(target));
    if (missing.length > 0)
      throw new Error(`${name}: the tarball lacks ${missing.join(', ')} (run \`pnpm build\` first?)`);
    tarballOf.set(name, filename);
    return `${name} (${files.length} files)`;
  });
  return results.join(', ');
});

// The install commands of the READMEs, as written: each line of a ```sh block that starts with
// `npm install "$SVC_PACKS"`, with the README(s) that give it.
const PACKS_INSTALL = 'npm install "$SVC_PACKS"';
const EVERYTHING = `${PACKS_INSTALL}/*.tgz`;
const readmes = ['README.md', ...packages.map(({ dir }) => `${dir}/README.md`)];
const installCommands = new Map();
for (const readme of readmes) {
  const text = existsSync(join(root, readme)) ? readFileSync(join(root, readme), 'utf8') : '';
  for (const [, body] of text.matchAll(/^```(?:sh|bash)\n([\s\S]*?)^```$/gm))
    for (const line of body.split('\n').map((l) => l.replace(/\s+#.*$/, '').trim()))
      if (line.startsWith(PACKS_INSTALL)) installCommands.set(line, [...(installCommands.get(line) ?? []), readme]);
}
/** The project (folder) each install command ran in, and the @svc packages it installed. */
const projects = new Map();
const svcDependencies = (dir) =>
  Object.keys(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).dependencies ?? {}).sort();
const projectInstalling = (wanted) =>
  [...projects.values()].find((p) => p.installed.join(' ') === [...wanted].sort().join(' '))?.dir;

// npm spends much of an install waiting on the disk and the registry's cache, on one core: the
// README projects install while the contract-alone project does, and the consumer's compiler is
// installed and run while the installed sandbox and CLI are checked.
const installing = step(
  'install',
  "every README's install command, as written, in an empty project",
  ['outside', 'pack'],
  async () => {
    const missing = [];
    for (const readme of readmes.filter((r) => existsSync(join(root, r))))
      if (![...installCommands.values()].some((where) => where.includes(readme))) missing.push(readme);
    if (missing.length > 0) throw new Error(`no \`${PACKS_INSTALL}/...\` line in ${missing.join(', ')}`);
    if (!installCommands.has(EVERYTHING)) throw new Error(`README.md does not say \`${EVERYTHING}\``);
    let index = 0;
    await Promise.all(
      [...installCommands].map(async ([command, where]) => {
        const dir = join(work, `project-${++index}`);
        mkdirSync(dir);
        const result = await run('sh', ['-c', command], {
          cwd: dir,
          env: {
            SVC_PACKS: tarballs,
            npm_config_audit: 'false',
            npm_config_fund: 'false',
            npm_config_prefer_offline: 'true',
          },
          timeoutMs: 150_000,
        });
        ok(result, `${command} (${where.join(', ')})`);
        const installed = svcDependencies(dir);
        const nested = installed.flatMap((name) =>
          names.filter((dep) =>
            existsSync(join(dir, 'node_modules', ...name.split('/'), 'node_modules', ...dep.split('/'))),
          ),
        );
        if (nested.length > 0)
          throw new Error(`${command}: its own copy of ${nested.join(', ')} inside another package`);
        projects.set(command, { dir, installed });
      }),
    );
    return [...projects]
      .map(([command, { installed }]) => `${command.slice(PACKS_INSTALL.length)}: ${installed.length}`)
      .join('; ');
  },
);

const integrator = () => projectInstalling(['@svc/api-client', '@svc/api-types']);
const everything = () => projects.get(EVERYTHING)?.dir;
/** Bytes of every file under a folder (apparent sizes, as `npm pack` reports unpacked sizes). */
function folderBytes(dir) {
  let bytes = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true }))
    if (entry.isFile()) bytes += statSync(join(entry.parentPath, entry.name)).size;
  return bytes;
}

await step(
  'contract-size',
  '@svc/contract install size (a fresh project installing its tarball alone)',
  ['outside', 'pack'],
  async () => {
    const alone = join(work, 'contract-alone');
    mkdirSync(alone);
    const overrides = Object.fromEntries(names.map((name) => [name, `file:${tarballOf.get(name)}`]));
    const manifest = {
      name: 'svc-contract-alone',
      private: true,
      dependencies: { '@svc/contract': overrides['@svc/contract'] },
      overrides,
    };
    writeJson(join(alone, 'package.json'), manifest);
    ok(await run('npm', ['install', ...NPM_FLAGS], { cwd: alone, timeoutMs: 150_000 }), 'npm install @svc/contract');
    const lock = JSON.parse(readFileSync(join(alone, 'package-lock.json'), 'utf8'));
    const packageCount = Object.keys(lock.packages).filter((key) => key.startsWith('node_modules/')).length;
    return `${(folderBytes(join(alone, 'node_modules')) / 1e6).toFixed(1)} MB in node_modules, ${packageCount} packages`;
  },
);
await installing;

// Issue 26: every published package installed together into an empty project fits in 12 MB.
const FOOTPRINT_LIMIT_BYTES = 12e6;

await step(
  'footprint',
  `every published package installed together into an empty project: at most ${FOOTPRINT_LIMIT_BYTES / 1e6} MB`,
  ['install'],
  () => {
    const modules = join(everything(), 'node_modules');
    const bytes = folderBytes(modules);
    const largest = readdirSync(join(modules, '@svc'))
      .map((name) => [name, folderBytes(join(modules, '@svc', name))])
      .sort((a, b) => b[1] - a[1])[0];
    const summary = `${(bytes / 1e6).toFixed(1)} MB in node_modules (largest @svc package: ${largest[0]}, ${(largest[1] / 1e6).toFixed(1)} MB)`;
    if (bytes > FOOTPRINT_LIMIT_BYTES) throw new Error(`${summary}: over ${FOOTPRINT_LIMIT_BYTES / 1e6} MB`);
    return summary;
  },
);

await step(
  'manifests',
  'installed manifests (every tarball): versions instead of workspace:*, svc.specVersion, the bundle resolves',
  ['install'],
  () => {
    const project = everything();
    const problems = [];
    for (const { manifest: source } of packages) {
      const installedPath = join(project, 'node_modules', ...source.name.split('/'), 'package.json');
      const text = readFileSync(installedPath, 'utf8');
      const installed = JSON.parse(text);
      if (installed.version !== source.version)
        problems.push(`${source.name}: installed ${installed.version}, workspace has ${source.version}`);
      if (text.includes('workspace:')) problems.push(`${source.name}: its package.json still says workspace:`);
      if (installed.svc?.specVersion !== specVersion)
        problems.push(`${source.name}: svc.specVersion is ${installed.svc?.specVersion}, the spec is ${specVersion}`);
    }
    // @svc/openapi's exports resolve from the consumer, and the bundle is the one recorded.
    const requireFromProject = createRequire(join(project, 'package.json'));
    for (const file of [
      'openapi.json',
      'openapi.yaml',
      'openapi.3.0.json',
      'openapi.postman_collection.json',
      'openapi.postman_environment.json',
    ]) {
      try {
        requireFromProject.resolve(`@svc/openapi/${file}`);
      } catch (error) {
        problems.push(`@svc/openapi/${file} does not resolve: ${error.message.split('\n')[0]}`);
      }
    }
    const bundleVersion = requireFromProject('@svc/openapi/openapi.json').info?.version;
    if (bundleVersion !== specVersion)
      problems.push(`the installed bundle is ${bundleVersion}, the workspace's ${specVersion}`);
    if (problems.length > 0) throw new Error(problems.join('\n    '));
    return `spec ${specVersion}`;
  },
);

const CONSUMER = `// An integrator's first program, compiled against the installed tarballs (scripts/pack-test.mjs).
import { createSvcClient, SvcApiError, unwrap } from '@svc/api-client';
import type { ErrorCode, OperationErrorCode, Thread } from '@svc/api-types';

const baseUrl = process.env.SVC_BASE_URL;
if (!baseUrl) throw new Error('SVC_BASE_URL is not set');
const svc = createSvcClient({ baseUrl, maxRetries: 0 }); // the key from SVC_API_KEY

// Type-level checks: each line below must be a type error. Should the published types degrade
// (to any, or codes to string), a directive goes unused and the type-check fails.
export function typeChecks(): void {
  // @ts-expect-error MEETING is not a ThreadEntityType (CALL, TEXT_MESSAGE, CONVERSATION_NOTE)
  void svc.POST('/v2/api/threads', { body: { entity_type: 'MEETING', entity_id: 'cll-6Mn3bV8q', content: 'Call back' } });
  // @ts-expect-error no such path in the contract
  void svc.GET('/v2/api/no-such-path');
  // @ts-expect-error not a code of the catalogue
  const notACode: ErrorCode = 'NOT_A_DOCUMENTED_CODE';
  // @ts-expect-error getThread does not document CONVERSATION_ITEM_NOT_FOUND (createThread does)
  const notGetThreads: OperationErrorCode<'getThread'> = 'CONVERSATION_ITEM_NOT_FOUND';
  void notACode;
  void notGetThreads;
}

const thread: Thread = unwrap(
  await svc.POST('/v2/api/threads', { body: { entity_type: 'CALL', entity_id: 'cll-6Mn3bV8q', content: 'Call back about the renewal' } }),
).data;
console.log(\`created thread \${thread.id} on \${thread.entity_type} \${thread.entity_id}, \${thread.comment_count} comment\`);

const read = await svc.GET('/v2/api/threads/{id}', { params: { path: { id: thread.id } } });
if (read.error) {
  const code: OperationErrorCode<'getThread'> = read.error.error.code;
  throw new Error(\`getThread failed: \${code}\`);
}
console.log(\`read thread \${read.data.data.id}: \${read.data.data.comments[0]?.content ?? '(no comment)'}\`);

try {
  unwrap(await svc.GET('/v2/api/threads/{id}', { params: { path: { id: 'cth-0NoSuch0' } } }));
  throw new Error('expected a 404 for cth-0NoSuch0');
} catch (error) {
  if (!(error instanceof SvcApiError)) throw error;
  const code: ErrorCode | undefined = error.code;
  console.log(\`error \${error.status} \${code} request_id=\${error.requestId}\`);
}
`;

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    lib: ['ES2023'],
    types: ['node'],
    strict: true,
    noUncheckedIndexedAccess: true,
    // The published declarations are checked too, not skipped.
    skipLibCheck: false,
    noEmitOnError: true,
    outDir: 'out',
  },
  files: ['consumer.ts'],
};

const typeChecking = step(
  'tsc',
  'tsc: the consumer type-checks and compiles (client and types only, strict, NodeNext, skipLibCheck off)',
  ['install'],
  async () => {
    const project = integrator();
    if (!project) throw new Error('no README install command installs exactly @svc/api-client and @svc/api-types');
    // What any TypeScript project has beside the client: the compiler and Node's types.
    const tools = [`typescript@${TYPESCRIPT}`, `@types/node@${TYPES_NODE}`];
    ok(await run('npm', ['install', '--save-dev', ...NPM_FLAGS, ...tools], { cwd: project }), 'npm install typescript');
    ok(await run('npm', ['pkg', 'set', 'type=module'], { cwd: project }), 'npm pkg set type=module');
    writeFileSync(join(project, 'consumer.ts'), CONSUMER);
    writeJson(join(project, 'tsconfig.json'), TSCONFIG);
    const tsc = join(project, 'node_modules', 'typescript', 'bin', 'tsc');
    const result = await run(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: project });
    if (result.code !== 0) throw new Error(`tsc exited ${result.code}\n${indent(result.stdout + result.stderr)}`);
    if (!existsSync(join(project, 'out', 'consumer.js'))) throw new Error('tsc wrote no out/consumer.js');
    return '4 deliberate type errors caught';
  },
);

const bin = (name) => join(everything(), 'node_modules', '.bin', name);
let sandboxUrl;

await step('sandbox', 'svc-sandbox (installed bin) starts and prints its demo keys', ['install'], async () => {
  const child = spawn(bin('svc-sandbox'), ['--port', '0', '--no-rate-limit'], {
    cwd: everything(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let output = '';
  sandboxUrl = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no banner within 20s:\n${indent(output)}`)), 20_000);
    const onData = (chunk) => {
      output += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match && output.includes(DEMO_KEY)) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('error', (error) => reject(error));
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`svc-sandbox exited ${code} before listening:\n${indent(output)}`));
    });
  });
  return sandboxUrl;
});

await step('help', 'svc-contract --help and --version (installed bin)', ['install'], async () => {
  const help = ok(await run(bin('svc-contract'), ['--help'], { cwd: everything() }), 'svc-contract --help');
  expectMatch(help.stdout, /^Usage: svc-contract \[options\]/, 'usage');
  expectMatch(help.stdout, /--base-url <url>/, 'usage');
  const version = ok(await run(bin('svc-contract'), ['--version'], { cwd: everything() }), 'svc-contract --version');
  const expected = packages.find((p) => p.manifest.name === '@svc/contract')?.manifest.version;
  if (version.stdout.trim() !== expected)
    throw new Error(`--version printed ${version.stdout.trim()}, expected ${expected}`);
  return `version ${expected}`;
});

await typeChecking;
await step(
  'consumer',
  'the consumer runs against the sandbox (create, read, typed 404)',
  ['tsc', 'sandbox'],
  async () => {
    const result = ok(
      await run(process.execPath, ['out/consumer.js'], {
        cwd: integrator(),
        env: { SVC_BASE_URL: sandboxUrl, SVC_API_KEY: DEMO_KEY },
        timeoutMs: 30_000,
      }),
      'node out/consumer.js',
    );
    expectMatch(result.stdout, /^created thread cth-\S+ on CALL cll-6Mn3bV8q, 1 comment$/m, 'create');
    expectMatch(result.stdout, /^read thread cth-\S+: Call back about the renewal$/m, 'read');
    expectMatch(result.stdout, /^error 404 THREAD_NOT_FOUND request_id=\S+$/m, 'typed error');
    return result.stdout.trim().split('\n')[0];
  },
);

await step('contract', 'svc-contract checks the sandbox (threads, writes allowed)', ['sandbox'], async () => {
  const output = join(work, 'contract-report');
  const result = await run(
    bin('svc-contract'),
    // No --config: the installed sandbox declares its demo keys and fixtures, so nothing may be skipped for configuration.
    [
      '--base-url',
      sandboxUrl,
      '--api-key',
      DEMO_KEY,
      '--only',
      'threads',
      '--allow-writes',
      '--rate',
      'off',
      '--quiet',
      '--reporter',
      'json',
      '--output',
      output,
    ],
    { cwd: everything(), timeoutMs: 60_000 },
  );
  const reportPath = join(output, 'report.json');
  if (!existsSync(reportPath))
    throw new Error(
      `svc-contract exited ${result.code} and wrote no JSON report\n${indent(result.stderr + result.stdout)}`,
    );
  const report = JSON.parse(readFileSync(reportPath, 'utf8'));
  const { checks } = report.summary;
  if (result.code !== 0 || report.summary.outcome !== 'passed')
    throw new Error(
      `svc-contract exited ${result.code}: ${JSON.stringify(checks)}\n${indent(result.stdout + result.stderr)}`,
    );
  if (!(checks.passed > 0)) throw new Error(`no check ran: ${JSON.stringify(checks)}`);
  return `${checks.passed} checks passed, ${report.requests} requests`;
});

cleanup();
process.stdout.write(
  `\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''} (pack test, ${seconds(started)})\n`,
);
process.exitCode = failed > 0 || skipped > 0 ? 1 : 0;
