// `npm run lint`: ESLint over the whole repository (the codec at the root, the CAR tool in car/,
// the engines package), in the style the code is written in: JavaScript Standard Style (2-space
// indent, single quotes, no semicolons, a space before a function's parentheses), from ESLint's
// recommended rules and @stylistic's preset set to that style. Rules the code does not follow
// are turned off below, each with why; the code is not rewritten to suit them.
import js from '@eslint/js'
import stylistic from '@stylistic/eslint-plugin'
import globals from 'globals'
import local from './lint/local-rules.js'

export default [
  {
    ignores: [
      '**/node_modules/',
      // built or packed output (.gitignore), StrykerJS's sandboxes and report
      'dist/', 'types/', 'car/types/', 'car/build/', '.stryker-tmp/', 'reports/',
      // written by toJavaScript from a schema (do not edit), in its own style
      'bench/generated/',
      // test data
      '**/fixtures/'
    ]
  },
  js.configs.recommended,
  stylistic.configs.customize({
    indent: 2,
    quotes: 'single',
    semi: false,
    jsx: false,
    braceStyle: '1tbs',
    commaDangle: 'never',
    quoteProps: 'as-needed',
    arrowParens: true
  }),
  {
    plugins: { local },
    languageOptions: {
      ecmaVersion: 'latest',
      sourceType: 'module',
      globals: { ...globals.node }
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      'local/declared-imports': 'error',
      'local/jsdoc-types': 'error',

      // Standard's choices where @stylistic's preset differs
      '@stylistic/space-before-function-paren': ['error', 'always'],
      '@stylistic/generator-star-spacing': ['error', { before: true, after: true }],
      '@stylistic/yield-star-spacing': ['error', 'both'],
      '@stylistic/operator-linebreak': ['error', 'after', { overrides: { '?': 'before', ':': 'before', '|>': 'before' } }],
      // a template literal may stand for a string holding a quote, as a double-quoted one may
      '@stylistic/quotes': ['error', 'single', { avoidEscape: true, allowTemplateLiterals: 'avoidEscape' }],
      'no-empty': ['error', { allowEmptyCatch: true }],
      'no-unused-vars': ['error', { args: 'none', caughtErrors: 'none', ignoreRestSiblings: true, vars: 'all' }],
      // Standard's, not in ESLint's recommended set; the code's eslint-disable comments name them
      'no-new-func': 'error',
      'no-self-compare': 'error',
      'no-throw-literal': 'error',

      // Off: the code does not follow these.
      // Short statements share a line throughout (`if (x) { a++; continue }`, `let a; let b`).
      '@stylistic/max-statements-per-line': 'off',
      // A wrapped condition is indented two levels, to stand apart from the block it opens.
      '@stylistic/indent-binary-ops': 'off',
      // A rethrown error carries the caught one's message in its own (what went wrong, in one
      // line), not as `cause`.
      'preserve-caught-error': 'off',
      // `let value = 0` before branches that all assign it: the declaration gives its type.
      'no-useless-assignment': 'off',
      // It takes the space after a JSDoc cast that opens an array (`[/** @type {T} */ (x)]`) for a
      // space after '[', and its fix deletes the cast; the code puts no other space inside brackets.
      '@stylistic/array-bracket-spacing': 'off'
    }
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' }
  },
  {
    // mocha specs run in Node; the .test.js files under test/browser and test/engines run in
    // browsers and other engines and name their globals themselves (/* global describe, it */)
    files: ['test/**/*.js', 'car/test/**/*.js'],
    ignores: ['test/browser/*.test.js', 'test/engines/*.test.js'],
    languageOptions: { globals: { ...globals.mocha } }
  },
  {
    // the web page and its worker; and Node files that hand functions to a browser page
    // (page.evaluate) or serve a page's script
    files: [
      'car/web/**/*.js', 'test/browser/**/*.js', 'test/engines/*.test.js', 'car/test/web/*.js',
      'bench/engines/page.js', 'engines/engines.js', 'examples/**/*.js', 'car/examples/**/*.js'
    ],
    languageOptions: { globals: { ...globals.browser, ...globals.worker } }
  }
]
