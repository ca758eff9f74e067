// One TypeScript program over every generator's output (and the probes that pin down what each one
// must type), under --strict: one compiler start instead of one per tool. Diagnostics are handed
// back per top folder, so each counts against the tool that wrote it.
import { readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import ts from 'typescript';

const OPTIONS = {
  strict: true,
  noEmit: true,
  skipLibCheck: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  lib: ['lib.es2022.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
  types: [],
  allowImportingTsExtensions: true,
  verbatimModuleSyntax: false,
  esModuleInterop: true,
};

/** Map from top folder under root to its diagnostics, as "file:line message" strings. */
export function typecheck(root) {
  const files = listTs(root);
  const program = ts.createProgram(files, OPTIONS);
  const byFolder = new Map();
  for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
    const file = diagnostic.file?.fileName;
    const folder = file ? relative(root, file).split(/[\\/]/)[0] : '(global)';
    const where =
      file && diagnostic.start !== undefined
        ? `${relative(root, file).split(sep).join('/')}:${diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start).line + 1} `
        : '';
    const message = `${where}TS${diagnostic.code} ${ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ')}`;
    if (!byFolder.has(folder)) byFolder.set(folder, []);
    byFolder.get(folder).push(message);
  }
  return { files: files.length, byFolder };
}

function listTs(folder) {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
    .map((entry) => join(entry.parentPath ?? entry.path, entry.name));
}
