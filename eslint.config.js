// ESLint 9 flat config: Endo's strict rules (@endo/eslint-plugin 3.0.0 `flat/strict`: recommended +
// imports + style, with eslint-config-prettier so ESLint leaves layout to Prettier) and the
// type-aware typescript-eslint rules that find real defects here. Every rule turned off or down
// below says why on its line. Versions and overrides: CONTRIBUTING.md.
import endo from '@endo/eslint-plugin';
import tseslint from 'typescript-eslint';

// Node's globals for the few plain-JS files (TypeScript files are checked by tsc instead).
const nodeGlobals = {
  process: 'readonly',
  setTimeout: 'readonly',
  clearTimeout: 'readonly',
  Buffer: 'readonly',
};

export default [
  {
    ignores: [
      'dist/**',
      'coverage/**',
      'node_modules/**',
      'bench/results/**',
      'bench-results/**',
      'reports/**',
      '.stryker-tmp/**',
      '**/*.d.ts',
    ],
  },
  ...endo.configs['flat/strict'],
  {
    files: ['**/*.ts'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: {
        // Each file is checked in the program of its nearest tsconfig.json (test/ has its own).
        projectService: {
          allowDefaultProject: ['vitest.config.ts', 'vitest.mutation.config.ts'],
        },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    plugins: { '@typescript-eslint': tseslint.plugin },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      // checksVoidReturn off: async callbacks handed to event emitters, timers and the exo's
      // methods are the daemon's style; their rejections are caught inside, which tsc cannot see.
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
      '@typescript-eslint/no-unnecessary-type-assertion': 'error',
      'require-await': 'off', // replaced by the type-aware version below
      '@typescript-eslint/require-await': 'error',
      // Reject and throw only Errors (issue 12): the type-aware versions see what a value is.
      'prefer-promise-reject-errors': 'off',
      // allowThrowingUnknown: passing on the rejection of the promise we wrap (typed unknown) is
      // not a new rejection; whatever it is, it is that promise's to choose.
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingUnknown: true }],
      'no-throw-literal': 'off',
      '@typescript-eslint/only-throw-error': 'error',
      'no-undef': 'off', // tsc reports undefined names, and knows the types ESLint's scope does not
      // The base rules do not understand type-only declarations (overloads, `type` and value of one name).
      'no-use-before-define': 'off',
      '@typescript-eslint/no-use-before-define': [
        'error',
        // Functions and variables are used before their definition only inside closures that run later
        // (makers that read top-down); classes are not hoisted, so they stay checked.
        { functions: false, classes: true, variables: false, ignoreTypeReferences: true },
      ],
      'no-shadow': 'off',
      '@typescript-eslint/no-shadow': 'error',
      'no-redeclare': 'off', // a type and a value may share a name in TS
    },
  },
  {
    // The rules every folder follows.
    rules: {
      'no-void': 'off', // `void promise` marks a deliberately floating promise (no-floating-promises)
      'no-continue': 'off', // early `continue` keeps loop bodies flat
      // Prettier lays a ternary chain out as an if/else-if ladder; choosing one value that way reads
      // better than a `let` assigned in branches.
      'no-nested-ternary': 'off',
      'no-underscore-dangle': [
        'error',
        { allow: ['__getMethodNames__', '__dirname', '__filename'] },
      ],
    },
  },
  {
    // Function length: makers split by role (issue 12), tests excepted (one scenario per `it`).
    files: [
      'agent.ts',
      'setup.ts',
      'setup-tools.ts',
      'src/**/*.ts',
      'providers/**/*.ts',
      'tools/**/*.ts',
      'sim/**/*.ts',
      'setup/**/*.ts',
    ],
    rules: {
      'max-lines-per-function': ['error', { max: 120, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    // Nothing prints past the log, which redacts (src/log/log.ts, the one module that writes to the
    // worker's stderr): a console.* in the agent, its providers or its tools could leak a secret.
    files: ['agent.ts', 'src/**/*.ts', 'providers/**/*.ts', 'tools/**/*.ts'],
    ignores: ['src/log/log.ts'],
    rules: { 'no-console': 'error' },
  },
  {
    // What every module exports is hardened, as Endo's packages do: the agent's code, its providers
    // and tools, and the simulator, bench, set-up and conformance code that import them (each entry
    // runs lockdown first). Tests and the config files, which run outside lockdown, are exempt.
    files: ['**/*.ts'],
    ignores: ['test/**', 'vitest.config.ts', 'vitest.mutation.config.ts'],
    rules: { '@endo/harden-exports': 'error' },
  },
  {
    // Tests, benchmarks, doubles and scripts run steps one after another on purpose (each awaits
    // the state the previous one made); the agent's code keeps the rule, disabled line by line.
    files: [
      'test/**',
      'bench/**',
      'sim/**',
      'scripts/**',
      'conformance/**',
      'setup/**',
      'setup.ts',
      'setup-tools.ts',
    ],
    rules: { 'no-await-in-loop': 'off' },
  },
  // no-bitwise off where bits are the data: open(2) flags in the sandbox confinement, FNV-1a
  // hashing of the prompt-cache key, UTF-8 continuation bytes when output is cut.
  {
    // Doubles and stubs stand in for remote objects, whose methods return promises: `async` says
    // so, awaiting nothing. In the agent's own code an `async` that awaits nothing stays an error.
    files: ['test/**', 'sim/**'],
    rules: { '@typescript-eslint/require-await': 'off' },
  },
  {
    files: ['tools/lib/confine.ts', 'providers/openai-cache.ts', 'tools/lib/output-cap.ts'],
    rules: { 'no-bitwise': 'off' },
  },
  {
    // Dev-dependencies are for what never ships in a caplet: tests, the bench, config files.
    rules: {
      'import/no-extraneous-dependencies': [
        'error',
        { devDependencies: ['test/**', 'bench/**', 'scripts/**', '*.config.{js,ts}'] },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: { globals: nodeGlobals },
  },
];
