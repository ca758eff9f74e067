// The source's shape, measured rather than asserted (issue 28): no function over 80 lines in
// packages/*/src and apps/*/src, at most 60 names exported from each published package's root
// entry (generated types aside: names declared in a `generated/` folder), and every file the
// concern table of ARCHITECTURE.md names exists. Uses the TypeScript compiler API. Exits 1 on a
// breach, with no exceptions; `--list` also prints every package's count.
//
//   node scripts/source-shape.mjs [--list]
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import ts from 'typescript';
import { publishedPackages, root } from './published-packages.mjs';

const MAX_FUNCTION_LINES = 80;
const MAX_ROOT_EXPORTS = 60;
const list = process.argv.includes('--list');

function* sourceFiles(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (name === 'generated' || name === 'node_modules' || name === 'dist') continue;
    if (statSync(path).isDirectory()) yield* sourceFiles(path);
    else if (/\.(m|c)?tsx?$/.test(name) && !name.endsWith('.d.ts')) yield path;
  }
}

function functionName(node) {
  if (node.name) return node.name.getText();
  const parent = node.parent;
  if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent))) return parent.name.getText();
  return '(anonymous)';
}

/** Every function, method, accessor and constructor of a file with its line count. */
function functionLengths(path) {
  const text = ts.sys.readFile(path);
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const found = [];
  const visit = (node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.end).line;
      found.push({ name: functionName(node), line: first + 1, lines: last - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function longFunctions() {
  const long = [];
  for (const group of ['packages', 'apps']) {
    for (const name of readdirSync(join(root, group))) {
      const src = join(root, group, name, 'src');
      if (!statSync(join(root, group, name)).isDirectory() || !safeIsDir(src)) continue;
      for (const path of sourceFiles(src)) {
        const file = relative(root, path);
        for (const fn of functionLengths(path)) if (fn.lines > MAX_FUNCTION_LINES) long.push({ file, ...fn });
      }
    }
  }
  return long.sort((a, b) => b.lines - a.lines);
}

function safeIsDir(path) {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** Names a package's root entry exports, generated ones aside. */
function rootExports(dir, manifest) {
  const entry = manifest.exports?.['.']?.types ?? manifest.types;
  if (typeof entry !== 'string') return undefined;
  const src = join(root, dir, entry.replace(/^\.\/dist\//, 'src/').replace(/\.d\.ts$/, '.ts'));
  if (!ts.sys.fileExists(src)) return undefined;
  const program = ts.createProgram([src], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    noEmit: true,
    skipLibCheck: true,
    types: [],
  });
  const checker = program.getTypeChecker();
  const module = checker.getSymbolAtLocation(program.getSourceFile(src));
  if (!module) return [];
  return checker.getExportsOfModule(module).filter((symbol) => {
    const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    const declarations = target.declarations ?? [];
    return !declarations.some((d) => d.getSourceFile().fileName.includes('/generated/'));
  });
}

/** Files named in ARCHITECTURE.md's concern table that do not exist (names resolve against the row's first folder). */
function missingFromArchitecture() {
  const text = readFileSync(join(root, 'ARCHITECTURE.md'), 'utf8');
  const table = text.slice(text.indexOf('| concern | where |'));
  const missing = [];
  for (const row of table.split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| concern'))) {
    const where = row.split(' | ').slice(1).join(' | ');
    const tokens = [...where.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
    let base;
    for (const token of tokens) {
      if (!/^[\w./*-]+$/.test(token) || token.startsWith('@')) continue;
      const rooted = /^(packages|apps|scripts|spec)\//.test(token);
      if (!rooted && !/\.(m?[jt]s|json)$/.test(token)) continue;
      if (!rooted && base === undefined) continue;
      // Names under src/ are written either way (`src/runner.ts` or `runner.ts`).
      const path = rooted ? join(root, token) : join(base, token.replace(/^src\//, ''));
      const checked = token.includes('*') ? dirname(path) : path;
      if (!existsSync(checked)) missing.push(`${token} (${relative(root, checked)})`);
      else if (rooted) base = statSync(checked).isDirectory() ? checked : dirname(checked);
      // A package's folder: its file names are those of its src/.
      if (rooted && existsSync(join(base, 'package.json')) && existsSync(join(base, 'src'))) base = join(base, 'src');
    }
  }
  return missing;
}

let failed = false;
for (const missing of missingFromArchitecture()) {
  failed = true;
  console.log(`MISSING  ARCHITECTURE.md names ${missing}, which does not exist`);
}
const long = longFunctions();
for (const fn of long) {
  failed = true;
  console.log(`TOO LONG  ${fn.lines} lines  ${fn.file}:${fn.line} ${fn.name}`);
}
for (const { dir, manifest } of publishedPackages()) {
  const names = rootExports(dir, manifest);
  if (names === undefined) continue;
  const over = names.length > MAX_ROOT_EXPORTS;
  if (over) failed = true;
  if (over || list) console.log(`${over ? 'TOO MANY' : 'ok'}  ${manifest.name}: ${names.length} root exports`);
}
if (failed) {
  console.error(
    `source-shape: functions are at most ${MAX_FUNCTION_LINES} lines, root entries export at most ${MAX_ROOT_EXPORTS} names.`,
  );
  process.exit(1);
}
console.log(
  `source-shape: every function within ${MAX_FUNCTION_LINES} lines, every root entry within ${MAX_ROOT_EXPORTS} names, every file ARCHITECTURE.md names exists.`,
);
