import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url))

// Tests run against the TypeScript sources of every workspace package, so `pnpm test`
// needs no build. The aliases mirror the `paths` of tsconfig.json.
const packages = [
  'core',
  'devnet',
  'solana-devnet',
  'sqlite',
  'postgres',
  'koa',
  'client',
  'mcp',
  'ai-sdk',
  'langchain',
  'openai-agents',
  'vault-pkcs11',
  'screening-blockaid',
]
const alias = [
  { find: '@agentwallet/core/testing', replacement: here('packages/core/src/testing/index.ts') },
  { find: '@agentwallet/core/contract', replacement: here('packages/core/src/contract/index.ts') },
  { find: /^@agentwallet\/vault-kms\/(aws|gcp)$/, replacement: here('packages/vault-kms/src/$1.ts') },
  ...packages
    .filter((name) => existsSync(here(`packages/${name}/src/index.ts`)))
    .map((name) => ({
      find: new RegExp(`^@agentwallet/${name}$`),
      replacement: here(`packages/${name}/src/index.ts`),
    })),
]

export default defineConfig({
  resolve: { alias },
  test: {
    include: ['packages/*/src/**/*.test.ts', 'packages/*/test/**/*.test.ts', 'test/**/*.test.ts'],
    // The in-process EVM segfaults under worker threads; forks are safe.
    pool: 'forks',
    // Vitest's default is one fewer than the cores: one file at a time on CI's 2 cores, while most of a
    // file's time is spent waiting (on a child process, the tracker's interval, a socket). Two at once.
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
})
