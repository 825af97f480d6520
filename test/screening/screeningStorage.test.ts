import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createAgentWallet, listScreening, type Principal, type Storage } from '@agentwallet/core'
import { runScreeningSourceConformance } from '@agentwallet/core/testing'
import { sqliteStorage } from '@agentwallet/sqlite'
import { afterAll, describe, expect, it } from 'vitest'
import { testSchemas } from '../../packages/postgres/test/testDatabase.js'

// The operator lists are records of the storage port: the same verdicts on SQLite and Postgres,
// a shared list (a boolean filter) included, and a storage that fails is an outage of the lists.
const root: Principal = { tenantId: 'default', id: 'root', role: 'admin', root: true }
const admin: Principal = { tenantId: 't1', id: 'admin-t1', role: 'admin' }
const drainer = '0x8576aCC5C05D6Ce88f4e49bf65BdF0C62F91353C'
const watched = '0x4B20993Bc481177ec7E8f571ceCaE8A9e22C02db'

async function listed(storage: Storage) {
  // The lists go through the composition root's session; nothing here reads a chain (none answers).
  const aw = await createAgentWallet({
    chains: { devnet: { rpcUrl: 'http://127.0.0.1:9', chainId: 31337 } },
    storage,
    masterKey: randomBytes(32),
    track: false,
  })
  const as = (principal: Principal) => aw.as(principal)
  const sdn = await as(root).createScreeningList({ name: 'OFAC SDN', shared: true, verdict: 'block' })
  await as(root).addScreeningEntries({
    list: sdn.list.id,
    family: 'evm',
    entries: [{ address: drainer, reason: 'OFAC SDN: TEST ACTOR (ent_num 1; ETH)' }],
  })
  const watch = await as(admin).createScreeningList({ name: 'watch', verdict: 'warn' })
  await as(admin).addScreeningEntries({
    list: watch.list.id,
    family: 'evm',
    entries: [{ address: watched.toLowerCase(), reason: 'under review' }],
  })
  let closed: Promise<void> | undefined
  const close = () => {
    closed ??= aw.close().then(() => storage.close())
    return closed
  }
  return {
    source: listScreening(storage),
    on: { tenantId: 't1', chain: 'devnet', chainId: 31337, family: 'evm' as const },
    clear: '0x000000000000000000000000000000000000dEaD',
    block: drainer,
    warn: watched,
    outage: close,
    close,
  }
}

const dirs: string[] = []
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

describe('on SQLite', () => {
  runScreeningSourceConformance(
    { describe, it, expect },
    {
      skipCalls: 'operator lists name addresses, not calls',
      create: async () => {
        const dir = mkdtempSync(join(tmpdir(), 'aw-screening-'))
        dirs.push(dir)
        return listed(sqliteStorage({ filename: join(dir, 'aw.db') }))
      },
    },
  )
})

describe('on Postgres', () => {
  const schemas = testSchemas()
  afterAll(() => schemas.cleanup())
  runScreeningSourceConformance(
    { describe, it, expect },
    {
      skipCalls: 'operator lists name addresses, not calls',
      create: async () => listed(await schemas.storage()),
    },
  )
})
