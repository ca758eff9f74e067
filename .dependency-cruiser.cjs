// dependency-cruiser's rules, run by `pnpm lint` (`pnpm lint:deps`): no package of the workspace
// has an import cycle, and @svc/contract reads top-down (see its README, "How it works").
// `npx depcruise packages/contract/src --config .dependency-cruiser.cjs --output-type dot` draws it.
const CONTRACT = '^packages/contract/src/';
/** Modules of the contract by floor, top-down: a module imports only from its own floor or below. */
const contract = (names) => names.map((n) => `${CONTRACT}${n}`);

// What runs the checks (the rules, the per-exchange checks, discovery, the session and its HTTP,
// the proxy): the verdict and the report sit below all of it.
const WHAT_RUNS_CHECKS = [
  'rules/',
  'exchange-checks/',
  'discovery/',
  'session\\.ts$',
  'fixtures\\.ts$',
  'http/',
  'proxy',
];

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'An import cycle: modules that can only be loaded and understood together. Type-only imports are ' +
        'left out here (they vanish at run time); the contract forbids those too (next rule).',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'no-circular-contract',
      severity: 'error',
      comment: '@svc/contract has no import cycle at all, type-only imports included.',
      from: { path: CONTRACT },
      to: { circular: true },
    },
    {
      name: 'contract-leaves',
      severity: 'error',
      comment:
        "Shared types, the checks' descriptions and the catalogue are leaves: they import nothing of the package but other leaves.",
      from: {
        path: contract([
          'types\\.ts$',
          'catalogue\\.ts$',
          'check-descriptions\\.ts$',
          'stops\\.ts$',
          'report/shape\\.ts$',
        ]),
      },
      to: {
        path: CONTRACT,
        pathNot: contract([
          'types\\.ts$',
          'catalogue\\.ts$',
          'check-descriptions\\.ts$',
          'http/exchange\\.ts$',
          'reach/',
          'spec\\.ts$',
        ]),
      },
    },
    {
      name: 'contract-entry-on-top',
      severity: 'error',
      comment: 'Nothing imports the entries (the CLI, the library index): they are the top floor.',
      from: { path: CONTRACT, pathNot: contract(['cli\\.ts$', 'index\\.ts$']) },
      to: { path: contract(['cli\\.ts$', 'index\\.ts$']) },
    },
    {
      name: 'contract-run-above-runner',
      severity: 'error',
      comment: 'One run (run.ts) uses the runner, the proxy and the report; none of them reaches back up into it.',
      from: { path: CONTRACT, pathNot: contract(['cli\\.ts$', 'index\\.ts$', 'run\\.ts$']) },
      to: { path: contract(['run\\.ts$']) },
    },
    {
      name: 'contract-runner-above-rules',
      severity: 'error',
      comment: 'The runner (execute.ts) runs the rules; rules, checks, the verdict and the report never import it.',
      from: { path: CONTRACT, pathNot: contract(['cli\\.ts$', 'index\\.ts$', 'run\\.ts$', 'execute\\.ts$']) },
      to: { path: contract(['execute\\.ts$']) },
    },
    {
      name: 'contract-verdict-below-checks',
      severity: 'error',
      comment: 'The verdict decides from what it is given: it imports no check, session, runner or report.',
      from: { path: contract(['verdict\\.ts$']) },
      to: {
        path: contract([...WHAT_RUNS_CHECKS, 'report/']),
      },
    },
    {
      name: 'contract-report-below-run',
      severity: 'error',
      comment: 'The report is built from records: it imports no rule, check, session or proxy.',
      from: { path: contract(['report/']) },
      to: {
        path: contract(WHAT_RUNS_CHECKS),
      },
    },
    {
      name: 'contract-proxy-beside-runner',
      severity: 'error',
      comment: 'The proxy sits beside the runner, sharing the report: it imports no rule, session or discovery.',
      from: { path: contract(['proxy']) },
      to: { path: contract(['rules/', 'discovery/', 'session\\.ts$', 'fixtures\\.ts$', 'embedded\\.ts$']) },
    },
    {
      name: 'contract-no-static-sandbox',
      severity: 'error',
      comment: 'Server code is loaded only when the embedded sandbox starts (a dynamic import in embedded.ts).',
      from: { path: CONTRACT },
      to: {
        path: '(^|/)(packages/(sandbox|kernel)|@svc/(sandbox|server-kernel))/',
        dependencyTypesNot: ['type-only', 'type-import', 'dynamic-import'],
      },
    },
  ],
  options: {
    // Built output and installed packages are seen as the targets of imports, never followed.
    doNotFollow: { path: '(^|/)(dist|node_modules)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'types', 'default'],
      extensions: ['.ts', '.mts', '.js', '.mjs'],
    },
  },
};
