// Lint rules: typescript-eslint's recommended set over everything we ship and test, and the import
// boundaries of docs/architecture.md over src/ (the tables test/architecture.test.ts checks too).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { boundariesRule } from './scripts/boundaries.mjs';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', '.concord/**', 'bench/.tmp/**', 'docs/api/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        setImmediate: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
        fetch: 'readonly',
        AbortController: 'readonly',
        URLSearchParams: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // docs/performance.md, 'Shared hidden classes': in optimised code, Node 20's V8 gives an object
    // literal that starts with a spread and then adds keys a fresh hidden class per evaluation
    // (~1.8 µs, allocated in old space, and every property access on such objects turns
    // megamorphic). The request path builds such objects with Object.assign on a fresh literal
    // instead, which shares hidden classes.
    files: ['src/server/**/*.ts', 'src/protocol/**/*.ts', 'src/store/**/*.ts', 'src/client/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "ObjectExpression[properties.0.type='SpreadElement'][properties.length>1]",
          message:
            'A literal that starts with a spread and adds keys gets a fresh hidden class per evaluation in V8 (docs/performance.md, "Shared hidden classes"): use Object.assign({}, a, b), or put the spread after the plain keys when they cannot clash.',
        },
      ],
    },
  },
  {
    // Every module specifier of src/ against scripts/boundaries.mjs, so an editor shows a crossing.
    files: ['src/**/*.ts'],
    plugins: { concord: { rules: { boundaries: boundariesRule } } },
    rules: { 'concord/boundaries': 'error' },
  },
);
