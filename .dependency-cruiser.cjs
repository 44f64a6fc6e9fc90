// The house rule "no import cycles", type-only imports included (tsPreCompilationDeps: an `import type`
// edge counts like any other, since a cycle of types still ties the files into one unit to read and change).
// `npm run lint` runs it over every source folder; test/unit/lint/no-cycles.test.ts shows it fails on a
// planted cycle.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycle',
      severity: 'error',
      comment:
        'Import cycles (type-only imports count) make every file of the cycle depend on all the others.',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist|release|coverage|\\.tmp)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.cts', '.mts', '.js', '.cjs', '.mjs', '.json'] },
  },
};
