import { randomUUID } from 'node:crypto'
import { authenticate, bootstrapAdmin, type Storage } from '@agentwallet/core'
import { afterAll, expect, it } from 'vitest'
import { testSchemas } from './testDatabase.js'

const schemas = testSchemas()
afterAll(() => schemas.cleanup())

const context = (storage: Storage) => ({
  storage,
  now: () => new Date(),
  newId: (prefix: string) => `${prefix}_${randomUUID().replaceAll('-', '')}`,
})
const key = (name: string) => `aw_replica_root_${name}_${'0'.repeat(24)}`

async function activeRootKeys(storage: Storage): Promise<string[]> {
  const keys = await storage.query('api_keys', {})
  return keys.filter((k) => k.root && !k.revokedAt).map((k) => k.id)
}

it('replicas starting at once with a new AGENTWALLET_ADMIN_KEY end with exactly one active root key', async () => {
  const a = await schemas.storage()
  const b = await schemas.storage({ schema: a.schema, migrate: false })
  try {
    const first = await bootstrapAdmin(context(a), { adminKey: key('old') })
    // Several replicas per instance, as in a rolling deploy where all pods start together.
    const same = await Promise.all(
      [a, b, a, b].map((storage) => bootstrapAdmin(context(storage), { adminKey: key('new') })),
    )
    expect(same.filter((boot) => boot.status === 'adopted')).toHaveLength(1)
    expect(same.flatMap((boot) => boot.revoked.map((k) => k.id))).toEqual([first.apiKey?.id])
    expect(await activeRootKeys(a)).toEqual([same[0]!.apiKey?.id])
    await expect(authenticate({ storage: b }, key('old'))).rejects.toMatchObject({ code: 'unauthorized' })

    // Two different values at once (a misconfigured rollout): whichever commits last is the root key.
    const [left, right] = await Promise.all([
      bootstrapAdmin(context(a), { adminKey: key('left') }),
      bootstrapAdmin(context(b), { adminKey: key('right') }),
    ])
    const active = await activeRootKeys(b)
    expect(active).toHaveLength(1)
    expect([left.apiKey?.id, right.apiKey?.id]).toContain(active[0])
    // The loser's value is revoked for good: a replica restarted with it refuses to start.
    const loser = active[0] === left.apiKey?.id ? key('right') : key('left')
    await expect(bootstrapAdmin(context(a), { adminKey: loser })).rejects.toMatchObject({
      code: 'conflict',
      details: { reason: 'revoked' },
    })
    expect(await activeRootKeys(a)).toEqual(active)
  } finally {
    await a.close()
    await b.close()
  }
})
