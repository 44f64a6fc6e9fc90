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
  {
    files: ['renderer/**/*.{ts,tsx}', 'test/renderer/**'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  { files: ['**/*.cjs', '**/*.cts'], rules: { '@typescript-eslint/no-require-imports': 'off' } },
);
