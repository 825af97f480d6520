import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { cruise, type IConfiguration, type ICruiseResult } from 'dependency-cruiser'
import { afterEach, describe, expect, it } from 'vitest'

// The rules `pnpm lint` checks (docs/architecture.md, Layers), run here on small made-up trees so
// that each one is seen to fail. The repository itself is checked by `pnpm lint`.
const config = createRequire(import.meta.url)('../../.dependency-cruiser.cjs') as IConfiguration
const coreRoot = fileURLToPath(new URL('../../packages/core/', import.meta.url))

let dir: string | undefined
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true })
  dir = undefined
})

/**
 * Cruises a tree of `files` (path → source) with the repository's rules; answers the violations.
 * `resolvingPackages` puts the tree inside packages/core, so its imports of npm packages resolve.
 */
async function violationsOf(files: Record<string, string>, { resolvingPackages = false } = {}) {
  dir = await mkdtemp(resolvingPackages ? join(coreRoot, '.example-') : join(tmpdir(), 'aw-layers-'))
  for (const [path, source] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true })
    await writeFile(join(dir, path), source)
  }
  const { output } = await cruise(['packages'], {
    baseDir: dir,
    validate: true,
    ruleSet: { forbidden: config.forbidden ?? [] },
    tsPreCompilationDeps: config.options?.tsPreCompilationDeps ?? true,
  })
  return (output as ICruiseResult).summary.violations.map(({ rule, from, to }) => ({
    rule: rule.name,
    from,
    to,
  }))
}

describe('the import rules of core', () => {
  it('catch a run-time import cycle between two folders at the import that goes up', async () => {
    const violations = await violationsOf({
      'packages/core/src/intents/draft.ts':
        "import { submit } from '../transactions/submit.ts'\nexport const draft = () => submit\n",
      'packages/core/src/transactions/submit.ts':
        "import { draft } from '../intents/draft.ts'\nexport const submit = () => draft\n",
    })
    expect(violations).toEqual([
      {
        rule: 'core-layer-intents',
        from: 'packages/core/src/intents/draft.ts',
        to: 'packages/core/src/transactions/submit.ts',
      },
    ])
  })

  it('catch a cycle through a third folder, and an import between two folders of one row', async () => {
    const violations = await violationsOf({
      'packages/core/src/vault/rotate.ts':
        "import { secret } from '../webhooks/secret.ts'\nexport const rotate = secret\n",
      'packages/core/src/webhooks/secret.ts':
        "import { seal } from '../chain/seal.ts'\nexport const secret = seal\n",
      'packages/core/src/chain/seal.ts':
        "import { rotate } from '../vault/rotate.ts'\nexport const seal = () => rotate\n",
    })
    expect(violations.map(({ rule }) => rule).sort()).toEqual(['core-layer-chain', 'core-layer-vault'])
  })

  it('let a type-only import point anywhere: it is gone at run time', async () => {
    const violations = await violationsOf({
      'packages/core/src/intents/draft.ts':
        "import type { Submit } from '../transactions/submit.ts'\nexport type Draft = { submit: Submit }\n",
      'packages/core/src/transactions/submit.ts':
        "import type { Draft } from '../intents/draft.ts'\nexport type Submit = (draft: Draft) => void\n",
    })
    expect(violations).toEqual([])
  })

  it('refuse a folder that has no row in the layers, and core importing another workspace package', async () => {
    const violations = await violationsOf({
      'packages/core/src/newFolder/thing.ts':
        "import { fail } from '../utils/fail.ts'\nexport const thing = fail\n",
      // Not a contract file (errors/ is: it would break the contract's own rule as well).
      'packages/core/src/utils/fail.ts':
        "import { open } from '../../../sqlite/src/open.ts'\nexport const fail = open\n",
      'packages/sqlite/src/open.ts': 'export const open = 1\n',
    })
    expect(violations.map(({ rule }) => rule).sort()).toEqual([
      'core-folder-not-in-a-layer',
      'core-imports-no-workspace-package',
    ])
  })

  it("refuse core's entry at run time in a reader of the contract (MCP, the client), not in its types", async () => {
    const violations = await violationsOf({
      'packages/core/src/index.ts':
        'export class ForbiddenError extends Error {}\nexport type Session = {}\n',
      'packages/mcp/src/backend/inProcess.ts':
        "import { ForbiddenError } from '../../../core/src/index.ts'\nexport const refuse = () => new ForbiddenError()\n",
      'packages/mcp/src/backend/remote.ts':
        "import type { Session } from '../../../core/src/index.ts'\nexport type Remote = Session\n",
    })
    expect(violations).toEqual([
      {
        rule: 'contract-readers-load-no-core',
        from: 'packages/mcp/src/backend/inProcess.ts',
        to: 'packages/core/src/index.ts',
      },
    ])
  })

  it('keep classic zod out of the contract: a contract file imports zod/mini only', async () => {
    const violations = await violationsOf(
      {
        'packages/core/src/wallets/walletSchemas.ts':
          "import * as z from 'zod/mini'\nexport const name = z.string()\n",
        'packages/core/src/wallets/walletContract.ts':
          "import * as z from 'zod'\nimport { name } from './walletSchemas.ts'\nexport const input = z.object({ name })\n",
      },
      { resolvingPackages: true },
    )
    expect(violations.map(({ rule, from }) => ({ rule, from }))).toEqual([
      { rule: 'contract-imports-only-the-contract', from: 'packages/core/src/wallets/walletContract.ts' },
    ])
  })
})
