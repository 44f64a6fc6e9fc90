// Flat config: typescript-eslint's recommended rules everywhere, React hooks rules in the renderer,
// and the house rule that only the Electron shell may import `electron`.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

const noElectron = {
  'no-restricted-imports': [
    'error',
    {
      paths: [
        { name: 'electron', message: 'Only electron/main.ts, preload.cts and ipc.ts may import electron.' },
      ],
    },
  ],
};

export default tseslint.config(
  { ignores: ['dist/**', 'release/**', 'node_modules/**', 'coverage/**', '.tmp/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  { files: ['memory/**', 'shared/**', 'electron/core/**', 'renderer/**'], rules: noElectron },
  // tsconfig.node.json has the DOM lib for the e2e tests' page.evaluate callbacks: keep browser globals out
  // of the code that runs under plain Node (and of shared/, which must run in both).
  {
    files: ['memory/**', 'shared/**', 'electron/**'],
    rules: {
      'no-restricted-globals': [
        'error',
        ...['window', 'document', 'navigator', 'localStorage', 'sessionStorage', 'location'].map((name) => ({
          name,
          message: 'Browser global in Node code: only renderer/ and page.evaluate callbacks run in a page.',
        })),
      ],
    },
  },
  {
    files: ['renderer/**/*.{ts,tsx}', 'test/renderer/**'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  // Search reads files through the Memory's API (list, read) and never builds a host path.
  {
    files: ['memory/search/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: ['electron', 'fs', 'node:fs', 'fs/promises', 'node:fs/promises', 'path', 'node:path'].map(
            (name) => ({ name, message: 'Search reads through the Memory API (list, read), not the disk.' }),
          ),
          patterns: [
            { group: ['../*', '!../types.js'], message: 'Search uses only the Memory API (../types.js).' },
          ],
        },
      ],
    },
  },
  { files: ['**/*.cjs', '**/*.cts'], rules: { '@typescript-eslint/no-require-imports': 'off' } },
  // A module URL's pathname is not a path: it keeps %20 for a space, escapes non-ASCII and gives /C:/... on
  // Windows (the desktop window once opened with no preload and no page from "My Projects").
  {
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "MemberExpression[property.name='pathname'][object.type='NewExpression'][object.callee.name='URL']:has(MetaProperty[meta.name='import'][property.name='meta'])",
          message: 'Use fileURLToPath(...) from node:url for a path from import.meta.url, not URL#pathname.',
        },
      ],
    },
  },
);
