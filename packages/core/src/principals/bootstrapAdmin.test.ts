import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { memoryStorage } from '../storage/memoryStorage.js'
import { type ApiKeyRecord, apiKeysCollection } from './apiKeyTypes.js'
import { authenticate } from './authenticate.js'
import { bootstrapAdmin } from './bootstrapAdmin.js'
import { createApiKey } from './createApiKey.js'
import { createTenant } from './createTenant.js'
import { hashApiKey } from './hashApiKey.js'
import { localPrincipal } from './types.js'

const newContext = () => ({
  storage: memoryStorage(),
  now: () => new Date(),
  newId: (prefix: string) => `${prefix}_${randomUUID().replaceAll('-', '')}`,
})
const key = (n: number) => `aw_root_key_number_${n}_${'0'.repeat(24)}`

async function activeRootIds(ctx: ReturnType<typeof newContext>): Promise<string[]> {
  const all = await ctx.storage.query(apiKeysCollection, {})
  return all.filter((k) => k.root && !k.revokedAt).map((k) => k.id)
}

describe('bootstrapAdmin', () => {
  it('a provided key replaces the root key before it (generated or provided) and revokes it; tenant admins stay', async () => {
    const ctx = newContext()
    const generated = await bootstrapAdmin(ctx)
    expect(generated).toMatchObject({ status: 'created', revoked: [] })
    const tenant = await createTenant(ctx, localPrincipal, { name: 'acme' })
    const other = await createApiKey(ctx, localPrincipal, { name: 'second admin', role: 'admin' })

    const first = await bootstrapAdmin(ctx, { adminKey: key(1) })
    expect(first.status).toBe('adopted')
    expect(first.revoked.map((k) => k.id)).toEqual([generated.apiKey?.id])
    await expect(authenticate(ctx, generated.key)).rejects.toMatchObject({ code: 'unauthorized' })
    expect(await authenticate(ctx, key(1))).toMatchObject({ role: 'admin', root: true })

    const second = await bootstrapAdmin(ctx, { adminKey: key(2) })
    expect(second.status).toBe('adopted')
    expect(second.revoked.map((k) => k.id)).toEqual([first.apiKey?.id])
    await expect(authenticate(ctx, key(1))).rejects.toMatchObject({ code: 'unauthorized' })
    expect(await authenticate(ctx, key(2))).toMatchObject({ root: true })
    // Not root keys: another admin of the default tenant, a tenant's admin.
    expect(await authenticate(ctx, other.key)).toMatchObject({ role: 'admin' })
    expect(await authenticate(ctx, tenant.key)).toMatchObject({ tenantId: tenant.tenant.id })
    expect(await activeRootIds(ctx)).toEqual([second.apiKey?.id])

    expect(await bootstrapAdmin(ctx, { adminKey: key(2) })).toMatchObject({ status: 'existing', revoked: [] })
    expect(await bootstrapAdmin(ctx)).toMatchObject({ status: 'existing', revoked: [] })
    expect(await authenticate(ctx, key(2))).toMatchObject({ root: true })
  })

  it('writes key.revoked for each root key it replaces, so every replica closes that key’s sockets', async () => {
    const ctx = newContext()
    const generated = await bootstrapAdmin(ctx)
    const adopted = await bootstrapAdmin(ctx, { adminKey: key(1) })
    const events = await ctx.storage.readEvents('default', { after: 0, limit: 100 })
    expect(events.filter((event) => event.type === 'key.revoked').map((event) => event.data)).toEqual([
      { keyId: generated.apiKey?.id, name: 'root admin', role: 'admin', revokedBy: adopted.apiKey?.id },
    ])
  })

  it('never restores a replaced key, and refuses an existing key that is not the root key', async () => {
    const ctx = newContext()
    await bootstrapAdmin(ctx, { adminKey: key(1) })
    await bootstrapAdmin(ctx, { adminKey: key(2) })
    await expect(bootstrapAdmin(ctx, { adminKey: key(1) })).rejects.toMatchObject({
      code: 'conflict',
      details: { reason: 'revoked' },
    })
    const agent = await createApiKey(ctx, localPrincipal, { name: 'bot', role: 'agent' })
    await expect(bootstrapAdmin(ctx, { adminKey: agent.key })).rejects.toMatchObject({
      code: 'conflict',
      details: { reason: 'not_root' },
    })
    await expect(authenticate(ctx, key(1))).rejects.toMatchObject({ code: 'unauthorized' })
    expect(await authenticate(ctx, key(2))).toMatchObject({ root: true })
    expect(await authenticate(ctx, agent.key)).toMatchObject({ role: 'agent' })
  })

  it('leaves one active root key when several were adopted before (each value used to be added beside the last)', async () => {
    const ctx = newContext()
    for (const n of [1, 2, 3]) {
      const record: ApiKeyRecord = {
        id: `key_legacy_${n}`,
        tenantId: 'default',
        name: 'root admin',
        role: 'admin',
        root: true,
        prefix: key(n).slice(0, 8),
        hash: hashApiKey(key(n)),
        createdAt: new Date().toISOString(),
      }
      await ctx.storage.transaction([], (tx) => tx.insert(apiKeysCollection, record))
    }
    const boot = await bootstrapAdmin(ctx, { adminKey: key(2) })
    expect(boot).toMatchObject({ status: 'existing', apiKey: { id: 'key_legacy_2' } })
    expect(boot.revoked.map((k) => k.id).sort()).toEqual(['key_legacy_1', 'key_legacy_3'])
    expect(await activeRootIds(ctx)).toEqual(['key_legacy_2'])
  })
})
