import { realpathSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

// Core classifies chain errors with `instanceof` on viem's classes: a second copy of viem (pnpm makes
// one per resolution of its optional zod peer) in the tests or in a package makes those checks miss,
// and an RPC refusal or outage reads as something else.
const root = join(import.meta.dirname, '..', '..')
const importers = ['.', 'packages/core', 'packages/devnet', 'packages/koa', 'packages/client', 'packages/mcp']

describe('the workspace', () => {
  it('resolves one copy of viem from the tests and from every package that uses it', () => {
    const copies = new Set(
      importers.map((importer) =>
        realpathSync(createRequire(join(root, importer, 'package.json')).resolve('viem/package.json')),
      ),
    )
    expect([...copies]).toHaveLength(1)
  })
})
