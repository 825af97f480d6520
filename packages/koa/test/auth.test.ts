import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from './helpers/testServer.js'

let t: TestServer
let tenantB: { key: string; tenantId: string }
let agentKey: string
let approverKey: string

beforeAll(async () => {
  t = await startTestServer()
  const created = await t.call('POST', '/tenants', { body: { name: 'acme' } })
  expect(created.status).toBe(201)
  tenantB = { key: created.body.key, tenantId: created.body.tenant.id }
  agentKey = (await t.call('POST', '/api-keys', { body: { name: 'bot', role: 'agent' } })).body.key
  approverKey = (await t.call('POST', '/api-keys', { body: { name: 'human', role: 'approver' } })).body.key
})
afterAll(async () => t?.close())

describe('authentication', () => {
  it('401 without a key, with a bad key and with an empty key — enveloped', async () => {
    for (const key of [undefined, 'aw_nope', 'x'.repeat(500)]) {
      const response = await t.call('GET', '/wallet/list', { key: key ?? '' })
      expect(response.status).toBe(401)
      expect(response.body).toMatchObject({ success: false, error: { code: 'unauthorized' } })
    }
  })

  it('public routes need no key', async () => {
    for (const path of ['/health', '/onboarding', '/openapi.json']) {
      expect((await t.call('GET', path, { key: '' })).status).toBe(200)
    }
  })
})

describe('API keys', () => {
  it('issues a raw key once, lists without secrets, and revokes', async () => {
    const created = await t.call('POST', '/api-keys', { body: { name: 'temp', role: 'agent' } })
    expect(created.status).toBe(201)
    expect(created.body.key).toMatch(/^aw_[A-Za-z0-9_-]{43}$/)
    expect(created.body.apiKey).toMatchObject({
      name: 'temp',
      role: 'agent',
      prefix: created.body.key.slice(0, 11),
    })
    expect(created.body.apiKey.hash).toBeUndefined()

    const list = await t.call('GET', '/api-keys')
    expect(list.status).toBe(200)
    expect(list.body.count).toBe(list.body.apiKeys.length)
    const text = JSON.stringify(list.body)
    expect(text).not.toContain(created.body.key)
    expect(text).not.toContain('"hash"')

    expect((await t.call('GET', '/wallet/list', { key: created.body.key })).status).toBe(200)
    const revoked = await t.call('DELETE', `/api-keys/${created.body.apiKey.id}`)
    expect(revoked.status).toBe(200)
    expect(revoked.body.apiKey.revokedAt).toBeTypeOf('string')
    expect((await t.call('GET', '/wallet/list', { key: created.body.key })).status).toBe(401)
  })

  it('only admins manage keys; only the root admin creates tenants', async () => {
    for (const key of [agentKey, approverKey]) {
      expect(
        (await t.call('POST', '/api-keys', { key, body: { name: 'x', role: 'admin' } })).body.error.code,
      ).toBe('forbidden')
      expect((await t.call('GET', '/api-keys', { key })).status).toBe(403)
    }
    const tenantAdmin = await t.call('POST', '/tenants', { key: tenantB.key, body: { name: 'nested' } })
    expect(tenantAdmin.status).toBe(403)
    expect((await t.call('POST', '/tenants', { body: { name: 'ACME' } })).status).toBe(409)
  })

  it('another tenant’s key id is not found', async () => {
    const own = await t.call('GET', '/api-keys')
    const id = own.body.apiKeys[0].id
    const response = await t.call('DELETE', `/api-keys/${id}`, { key: tenantB.key })
    expect(response.status).toBe(404)
    expect(response.body.error.code).toBe('not_found')
  })
})

describe('tenancy and roles', () => {
  it('hides another tenant’s wallets (404, no existence leak) and lists only one’s own', async () => {
    const wallet = (await t.call('POST', '/wallet/create', { body: { agentName: 'default-tenant' } })).body
      .wallet
    const other = await t.call('GET', `/wallet/${wallet.address}/balance`, { key: tenantB.key })
    expect(other.status).toBe(404)
    expect(other.body.error.code).toBe('not_found')
    const missing = await t.call('GET', '/wallet/0x000000000000000000000000000000000000dEaD/balance', {
      key: tenantB.key,
    })
    expect(missing.body.error).toEqual({
      ...other.body.error,
      details: { address: '0x000000000000000000000000000000000000dEaD' },
    })
    expect(
      (
        await t.call('POST', `/wallet/${wallet.address}/send`, {
          key: tenantB.key,
          body: { to: wallet.address, value: '1' },
        })
      ).status,
    ).toBe(404)
    expect((await t.call('GET', `/wallet/${wallet.address}/history`, { key: tenantB.key })).status).toBe(404)
    const listB = await t.call('GET', '/wallet/list', { key: tenantB.key })
    expect(listB.body).toEqual({ success: true, count: 0, limit: 100, offset: 0, wallets: [] })
  })

  it('an agent sees only its own wallets; admins see the tenant’s', async () => {
    const mine = (await t.call('POST', '/wallet/create', { key: agentKey, body: { agentName: 'mine' } })).body
      .wallet
    const agentList = await t.call('GET', '/wallet/list', { key: agentKey })
    expect(agentList.body.wallets.map((w: { address: string }) => w.address)).toEqual([mine.address])
    const adminList = await t.call('GET', '/wallet/list')
    expect(adminList.body.wallets.map((w: { address: string }) => w.address)).toContain(mine.address)
    const adminWallet = adminList.body.wallets.find((w: { address: string }) => w.address !== mine.address)
    // Paged: count is the total, the page is oldest first.
    const paged = await t.call('GET', `/wallet/list?limit=1&offset=${adminList.body.count - 1}`)
    expect(paged.body).toMatchObject({
      count: adminList.body.count,
      limit: 1,
      offset: adminList.body.count - 1,
    })
    expect(paged.body.wallets.map((w: { address: string }) => w.address)).toEqual([mine.address])
    expect((await t.call('GET', '/wallet/list?limit=5000')).body.error.code).toBe('validation_failed')
    expect((await t.call('GET', `/wallet/${adminWallet.address}/balance`, { key: agentKey })).status).toBe(
      404,
    )
  })

  it('only admins change policy (403 for agent and approver)', async () => {
    for (const key of [agentKey, approverKey]) {
      const response = await t.call('POST', '/policy/update', { key, body: { rules: [] } })
      expect(response.status).toBe(403)
      expect(response.body.error.code).toBe('forbidden')
    }
    expect((await t.call('GET', '/policy/rules', { key: agentKey })).status).toBe(200)
  })
})

describe('logs', () => {
  it('never contain an API key, even a rejected one', async () => {
    const bogus = 'aw_this_is_a_secret_attempt_0123456789'
    await t.call('GET', '/wallet/list', { key: bogus })
    await t.call('GET', `/wallet/list?apiKey=${bogus}`)
    const logs = t.logs.join('')
    expect(t.logs.length).toBeGreaterThan(10)
    for (const secret of [t.adminKey, agentKey, approverKey, tenantB.key, bogus])
      expect(logs).not.toContain(secret)
  })
})
