// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';

/** The folders of src/domain, each with an index.ts listing its public surface. */
const DOMAIN_FOLDERS = ['authority', 'definitions', 'learnables', 'mail', 'matching', 'triage'];

/**
 * The zone that keeps code outside `src/domain/<folder>` from importing past its index.ts.
 * @param {string} folder
 */
const throughIndex = (folder) => ({
  target: [
    './src/!(domain)/**',
    './src/*.ts',
    `./src/domain/!(${folder})/**`,
    './src/domain/*.ts',
    './bench/**',
    './test/**',
    './scripts/**',
  ],
  from: `./src/domain/${folder}/**`,
  except: [`**/src/domain/${folder}/index.ts`, '**/*.contract.ts'],
  message: `Import src/domain/${folder} from its index.ts (add the name there if it is really public).`,
});

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'data/**',
      '.tools/**',
      'bench-results/**',
      'fixtures/**',
      '.scratch*/**',
      'eslint.config.js',
      'console/dist/**',
      'test-results/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['bin/*.js', 'conformance/bin/*.js'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    plugins: { 'import-x': importX },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/restrict-template-expressions': [
        'error',
        { allowNumber: true, allowBoolean: true },
      ],
      // Dependencies point inward (docs/architecture.md): the domain imports only itself, node: builtins,
      // re2 and the regex parser; adapters never import each other; only the root files (main.ts,
      // compose-*.ts, server.ts) and cli/ wire them.
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: './src/domain',
              from: './src',
              except: ['./domain'],
              message: 'The domain imports only itself.',
            },
            {
              target: './src/store',
              from: ['./src/a2a', './src/http', './src/ingest', './src/cli', './src/delivery'],
            },
            {
              target: './src/a2a',
              from: ['./src/store', './src/http', './src/ingest', './src/cli', './src/delivery'],
            },
            {
              target: './src/ingest',
              from: ['./src/store', './src/http', './src/a2a', './src/cli', './src/delivery'],
            },
            {
              target: './src/http',
              from: ['./src/store', './src/ingest', './src/a2a', './src/cli', './src/delivery'],
            },
            {
              target: './src/admission',
              from: ['./src/store', './src/http', './src/ingest', './src/a2a', './src/cli', './src/delivery'],
            },
            {
              target: './src/delivery',
              from: [
                './src/store',
                './src/http',
                './src/ingest',
                './src/a2a',
                './src/cli',
                './src/admission',
              ],
            },
            // Inside the domain, one direction: triage -> authority -> definitions -> learnables ->
            // matching -> mail (issue 13). Each folder may import only those after it.
            {
              target: './src/domain/mail',
              from: [
                './src/domain/matching',
                './src/domain/learnables',
                './src/domain/definitions',
                './src/domain/authority',
                './src/domain/triage',
              ],
              message: 'domain/mail is the innermost room: it imports no other domain folder.',
            },
            {
              target: './src/domain/learnables',
              from: ['./src/domain/definitions', './src/domain/authority', './src/domain/triage'],
              message:
                'domain/learnables imports only matching and mail (triage -> authority -> definitions -> learnables -> matching -> mail).',
            },
            {
              target: './src/domain/definitions',
              from: ['./src/domain/authority', './src/domain/triage'],
              message: 'domain/definitions imports only learnables, matching and mail.',
            },
            {
              target: './src/domain/authority',
              from: ['./src/domain/triage'],
              message:
                'domain/authority never imports triage (triage reads definitions through the authority).',
            },
            // The matching engine is below everything else in the domain: it knows mail, and the
            // tenant type of its analysis store port, and nothing of learnables, definitions or triage.
            {
              target: './src/domain/matching',
              from: './src/domain',
              except: ['./matching', './mail', './tenant.ts'],
              message: 'src/domain/matching imports only src/domain/mail and src/domain/tenant.ts.',
            },
            // Each domain folder's index.ts is its public surface: nothing outside the folder imports a
            // file past it (issue 13). Files inside the folder, tests beside the code included, import
            // their neighbours; a `*.contract.ts` suite is test code, so tests elsewhere may import it.
            ...DOMAIN_FOLDERS.map(throughIndex),
            // The conformance kit checks any agent over HTTP only (issue 30): nothing of this server.
            {
              target: './conformance',
              from: ['./src', './test', './bench', './soak', './scripts', './console'],
              message:
                'The conformance kit reaches an agent over HTTP only; it imports nothing of this server.',
            },
          ],
        },
      ],
      'no-restricted-imports': 'off',
    },
  },
  {
    // Readable whole (docs/architecture.md): no function in src/ over 150 lines, nested functions
    // counted in their parent, and no file over 500. Tests beside the code are suites, not functions.
    files: ['src/**/*.ts'],
    ignores: ['src/**/*.test.ts'],
    rules: {
      'max-lines': ['error', { max: 500 }],
      'max-lines-per-function': ['error', { max: 150 }],
    },
  },
  {
    files: ['src/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                'express',
                'kysely',
                'better-sqlite3',
                'pg',
                'zod',
                '@a2a-js/*',
                'mailparser',
                'imapflow',
              ],
              message: 'The domain has no I/O: no express, zod, kysely, SDK or mail libraries.',
            },
          ],
        },
      ],
    },
  },
  {
    // The kit reads another agent's wire JSON, whose shape is what it checks: loosely, like a test.
    files: ['conformance/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    files: ['**/*.test.ts', 'test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/unbound-method': 'off',
    },
  },
);
