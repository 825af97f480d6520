import { parseEther } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { startTestServer, type TestServer } from './helpers/testServer.js'

const token = 'metrics_token_0123456789abcdef'
const fresh = () => privateKeyToAccount(generatePrivateKey()).address

type Sample = { name: string; labels: Record<string, string>; value: number }
type Exposition = { samples: Sample[]; types: Map<string, string>; helps: Map<string, string> }

/**
 * A strict little parser of the text format 0.0.4: every line is a HELP, a TYPE or a sample whose
 * family was declared before it; anything else fails the test.
 */
function parseExposition(text: string): Exposition {
  const exposition: Exposition = { samples: [], types: new Map(), helps: new Map() }
  expect(text.endsWith('\n'), 'ends with a newline').toBe(true)
  for (const line of text.slice(0, -1).split('\n')) {
    const meta = /^# (HELP|TYPE) ([a-zA-Z_:][a-zA-Z0-9_:]*) (.*)$/.exec(line)
    if (meta) {
      const [, kind, name, rest] = meta as unknown as [string, string, string, string]
      if (kind === 'TYPE') {
        expect(['counter', 'gauge', 'histogram'], line).toContain(rest)
        expect(exposition.types.has(name), `TYPE of ${name} once`).toBe(false)
        exposition.types.set(name, rest)
      } else exposition.helps.set(name, rest)
      continue
    }
    const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line)
    expect(sample, `a sample line: ${line}`).not.toBeNull()
    const [, name, labelText, value] = sample as unknown as [string, string, string | undefined, string]
    const labels: Record<string, string> = {}
    for (const pair of (labelText ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)",?/g)) {
      labels[pair[1]!] = pair[2]!.replace(/\\(.)/g, (_m, c: string) => (c === 'n' ? '\n' : c))
    }
    const family = [...exposition.types.keys()].find(
      (family) =>
        name === family ||
        (exposition.types.get(family) === 'histogram' &&
          ['_bucket', '_sum', '_count'].some((suffix) => name === family + suffix)),
    )
    expect(family, `${name} has a TYPE before it`).toBeDefined()
    const number = value === '+Inf' ? Number.POSITIVE_INFINITY : Number(value)
    expect(Number.isNaN(number), `${line} has a numeric value`).toBe(false)
    exposition.samples.push({ name, labels, value: number })
  }
  for (const name of exposition.types.keys()) expect(exposition.helps.has(name), `HELP of ${name}`).toBe(true)
  return exposition
}

/** The value of the one sample with exactly these labels (0 when absent, as Prometheus would treat a rate). */
function sampleValue(exposition: Exposition, name: string, labels: Record<string, string> = {}): number {
  const matches = exposition.samples.filter(
    (sample) =>
      sample.name === name &&
      Object.keys(sample.labels).length === Object.keys(labels).length &&
      Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  )
  expect(matches.length, `${name}${JSON.stringify(labels)} at most once`).toBeLessThanOrEqual(1)
  return matches[0]?.value ?? 0
}

let t: TestServer
let agentKey: string

async function scrape(): Promise<{ text: string; exposition: Exposition }> {
  const response = await fetch(`${t.url}/metrics`, { headers: { authorization: `Bearer ${token}` } })
  const text = await response.text()
  expect(response.status, text.slice(0, 300)).toBe(200)
  expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8')
  return { text, exposition: parseExposition(text) }
}

async function waitForStatus(hash: string, status: string) {
  for (let i = 0; i < 400; i++) {
    const response = await t.call('GET', `/wallet/tx/${hash}`, { key: agentKey })
    if (response.body.status === status) return
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  throw new Error(`tx ${hash} never reached ${status}`)
}

beforeAll(async () => {
  t = await startTestServer({ metrics: { token } })
  agentKey = (await t.call('POST', '/api-keys', { body: { name: 'metrics-bot', role: 'agent' } })).body.key
})
afterAll(async () => t?.close())

describe('access', () => {
  it('401 with the error envelope without the token, with a wrong one, and with any API key', async () => {
    const attempts: Array<Record<string, string>> = [
      {},
      { authorization: 'Bearer wrong_token_0123456789abcdef' },
      { authorization: `Bearer ${token}x` },
      { authorization: `Basic ${Buffer.from(`x:${token}`).toString('base64')}` },
      { authorization: token },
      { 'x-api-key': t.adminKey },
      { authorization: `Bearer ${t.adminKey}` },
    ]
    for (const headers of attempts) {
      const response = await fetch(`${t.url}/metrics`, { headers })
      expect(response.status, JSON.stringify(headers)).toBe(401)
      expect(response.headers.get('content-type')).toMatch(/application\/json/)
      expect(response.headers.get('www-authenticate')).toBe('Bearer')
      const body = await response.json()
      expect(body).toMatchObject({ success: false, error: { code: 'unauthorized' } })
    }
  })

  it('is listed in /openapi.json under its own bearer scheme, answering text', async () => {
    const { body } = await t.call('GET', '/openapi.json', { key: '' })
    const operation = body.paths['/metrics'].get
    expect(operation.security).toEqual([{ bearerToken: [] }])
    expect(body.components.securitySchemes.bearerToken).toMatchObject({ type: 'http', scheme: 'bearer' })
    expect(Object.keys(operation.responses['200'].content)).toEqual([
      'text/plain; version=0.0.4; charset=utf-8',
    ])
  })

  it('refuses query parameters once authenticated (400), like every route without a query shape', async () => {
    const response = await fetch(`${t.url}/metrics?name=x`, { headers: { authorization: `Bearer ${token}` } })
    expect(response.status).toBe(400)
    expect(await response.json()).toMatchObject({ error: { code: 'validation_failed' } })
  })

  it('is off by default: no route (404 envelope) and absent from /openapi.json', async () => {
    const off = await startTestServer({ devnet: t.devnet })
    try {
      const response = await off.call('GET', '/metrics', { headers: { authorization: `Bearer ${token}` } })
      expect(response.status).toBe(404)
      expect(response.body).toMatchObject({ success: false, error: { code: 'not_found' } })
      const document = await off.call('GET', '/openapi.json', { key: '' })
      expect(document.body.paths['/metrics']).toBeUndefined()
      expect(document.body.components.securitySchemes.bearerToken).toBeUndefined()
    } finally {
      await off.close()
    }
  })

  it('refuses a token shorter than 16 characters', async () => {
    await expect(startTestServer({ devnet: t.devnet, metrics: { token: 'short' } })).rejects.toMatchObject({
      code: 'validation_failed',
    })
  })
})

describe('contents', () => {
  it('a confirmed send on the devnet adds one to its chain’s confirmed count and to tx.confirmed events', async () => {
    const { wallet } = (await t.call('POST', '/wallet/create', { key: agentKey, body: { agentName: 'm' } }))
      .body
    await t.devnet.faucet(wallet.address, parseEther('1'))
    const before = (await scrape()).exposition
    const sent = await t.call('POST', `/wallet/${wallet.address}/send`, {
      key: agentKey,
      body: { to: fresh(), value: '0.01' },
    })
    expect(sent.status).toBe(200)
    await waitForStatus(sent.body.transaction.hash, 'confirmed')
    const after = (await scrape()).exposition

    const confirmed = { chain: 'devnet', status: 'confirmed' }
    expect(sampleValue(after, 'agentwallet_transactions', confirmed)).toBe(
      sampleValue(before, 'agentwallet_transactions', confirmed) + 1,
    )
    const event = { type: 'tx.confirmed' }
    expect(sampleValue(after, 'agentwallet_events_total', event)).toBe(
      sampleValue(before, 'agentwallet_events_total', event) + 1,
    )
    // Every status of every chain is reported, zeros included, so alerts see a series from the start.
    const statuses = after.samples
      .filter((sample) => sample.name === 'agentwallet_transactions')
      .map((sample) => sample.labels.status)
    expect(statuses.sort()).toEqual(
      [
        'blocked',
        'confirmed',
        'expired',
        'failed',
        'pending_approval',
        'queued',
        'rejected',
        'submitted',
      ].sort(),
    )
    expect(
      sampleValue(after, 'agentwallet_transactions_oldest_unmined_age_seconds', {
        chain: 'devnet',
        status: 'submitted',
      }),
    ).toBe(0)
  })

  it('the tracker’s skipped steps: every step of every chain from the first scrape, then what this process counted', async () => {
    const before = (await scrape()).exposition
    expect(before.types.get('agentwallet_tracker_steps_skipped_total')).toBe('counter')
    const steps = before.samples
      .filter((sample) => sample.name === 'agentwallet_tracker_steps_skipped_total')
      .map((sample) => `${sample.labels.chain}/${sample.labels.step}`)
    expect(steps.sort()).toEqual(
      [
        'devnet/reorg_next_nonce',
        'devnet/reorg_rebroadcast',
        'devnet/replacement_balance',
        'devnet/replacement_broadcast',
        'devnet/replacement_fees',
      ].sort(),
    )
    t.agentWallet.context.skipped.count('replacement_fees', 'devnet')
    const after = (await scrape()).exposition
    const fees = { chain: 'devnet', step: 'replacement_fees' }
    expect(sampleValue(after, 'agentwallet_tracker_steps_skipped_total', fees)).toBe(
      sampleValue(before, 'agentwallet_tracker_steps_skipped_total', fees) + 1,
    )
  })

  it('a paused send shows in the pending approvals and their oldest age', async () => {
    const { wallet } = (await t.call('POST', '/wallet/create', { key: agentKey, body: { agentName: 'p' } }))
      .body
    await t.devnet.faucet(wallet.address, parseEther('5'))
    const updated = await t.call('POST', '/policy/update', {
      body: { wallet: wallet.address, rules: [{ type: 'require_approval', asset: 'native', above: '1' }] },
    })
    expect(updated.status).toBe(200)
    const before = (await scrape()).exposition
    const paused = await t.call('POST', `/wallet/${wallet.address}/send`, {
      key: agentKey,
      body: { to: fresh(), value: '2' },
    })
    expect(paused.status).toBe(202)
    await new Promise((resolve) => setTimeout(resolve, 1_100))
    const after = (await scrape()).exposition

    expect(sampleValue(after, 'agentwallet_approvals_pending')).toBe(
      sampleValue(before, 'agentwallet_approvals_pending') + 1,
    )
    expect(sampleValue(after, 'agentwallet_approvals_oldest_pending_age_seconds')).toBeGreaterThanOrEqual(1)
    const paused_ = { chain: 'devnet', status: 'pending_approval' }
    expect(sampleValue(after, 'agentwallet_transactions', paused_)).toBe(
      sampleValue(before, 'agentwallet_transactions', paused_) + 1,
    )
    expect(sampleValue(after, 'agentwallet_events_total', { type: 'policy.hitl' })).toBe(
      sampleValue(before, 'agentwallet_events_total', { type: 'policy.hitl' }) + 1,
    )
  })

  it('counts a request to a route with an id under its template, never its raw path', async () => {
    const address = fresh()
    const route = '/wallet/:wallet/balance'
    const before = (await scrape()).exposition
    const missing = await t.call('GET', `/wallet/${address}/balance`, { key: agentKey })
    expect(missing.status).toBe(404)
    const unknown = await t.call('GET', `/no/such/${address}`)
    expect(unknown.status).toBe(404)
    const { text, exposition: after } = await scrape()

    const counted = { method: 'GET', route, status: '4xx' }
    expect(sampleValue(after, 'agentwallet_http_requests_total', counted)).toBe(
      sampleValue(before, 'agentwallet_http_requests_total', counted) + 1,
    )
    const other = { method: 'GET', route: 'other', status: '4xx' }
    expect(sampleValue(after, 'agentwallet_http_requests_total', other)).toBe(
      sampleValue(before, 'agentwallet_http_requests_total', other) + 1,
    )
    const histogram = { method: 'GET', route }
    expect(sampleValue(after, 'agentwallet_http_request_duration_seconds_count', histogram)).toBe(
      sampleValue(before, 'agentwallet_http_request_duration_seconds_count', histogram) + 1,
    )
    expect(
      sampleValue(after, 'agentwallet_http_request_duration_seconds_bucket', { ...histogram, le: '+Inf' }),
    ).toBe(sampleValue(after, 'agentwallet_http_request_duration_seconds_count', histogram))
    expect(text.toLowerCase()).not.toContain(address.toLowerCase().slice(2))
    // Every route label is a template the server declares (its OpenAPI paths, in router syntax) or `other`.
    const document = (await t.call('GET', '/openapi.json', { key: '' })).body as { paths: object }
    const templates = new Set([
      'other',
      ...Object.keys(document.paths).map((path) => path.replace(/\{(\w+)\}/g, ':$1')),
    ])
    const routes = after.samples.flatMap((sample) => (sample.labels.route ? [sample.labels.route] : []))
    expect(routes).toContain(route)
    for (const label of routes) expect(templates.has(label), label).toBe(true)
  })

  it('reports process metrics, the event-loop lag included', async () => {
    await scrape()
    await new Promise((resolve) => setTimeout(resolve, 60))
    const blockedUntil = performance.now() + 150
    while (performance.now() < blockedUntil) {
      // Holds the event loop, which the server shares with this test.
    }
    await new Promise((resolve) => setTimeout(resolve, 60))
    const { exposition } = await scrape()
    expect(sampleValue(exposition, 'nodejs_eventloop_lag_max_seconds')).toBeGreaterThanOrEqual(0.1)
    expect(sampleValue(exposition, 'process_resident_memory_bytes')).toBeGreaterThan(1_000_000)
    expect(sampleValue(exposition, 'agentwallet_process_uptime_seconds')).toBeGreaterThan(0)
    expect(sampleValue(exposition, 'agentwallet_metrics_storage_up')).toBe(1)
  })

  it('no address, API key, key id, tenant id or record id appears anywhere in the output', async () => {
    const admin = await t.agentWallet.authenticate(t.adminKey)
    const agent = await t.agentWallet.authenticate(agentKey)
    const wallets = (await t.call('GET', '/wallet/list')).body.wallets as Array<{
      id: string
      address: string
    }>
    const agentWallets = (await t.call('GET', '/wallet/list', { key: agentKey })).body.wallets as Array<{
      id: string
      address: string
    }>
    const approvals = (await t.call('GET', '/policy/approvals')).body.approvals as Array<{ id: string }>
    // A second tenant with a wallet: its distinctive id must not show either ("default" is the root's).
    const tenant = (await t.call('POST', '/tenants', { body: { name: 'metrics-tenant' } })).body
    const tenantPrincipal = await t.agentWallet.authenticate(tenant.key)
    const tenantWallet = (
      await t.call('POST', '/wallet/create', { key: tenant.key, body: { agentName: 'x' } })
    ).body.wallet as { id: string; address: string }
    const forbidden = [
      t.adminKey,
      agentKey,
      admin.id,
      agent.id,
      tenant.key,
      tenantPrincipal.id,
      tenantPrincipal.tenantId,
      tenantWallet.id,
      tenantWallet.address,
      ...[...wallets, ...agentWallets].flatMap((wallet) => [
        wallet.id,
        wallet.address,
        wallet.address.slice(2),
      ]),
      ...approvals.map((approval) => approval.id),
    ]
    expect(agentWallets.length).toBeGreaterThan(0)
    expect(approvals.length).toBeGreaterThan(0)
    expect(tenantPrincipal.tenantId).not.toBe(admin.tenantId)
    const { text } = await scrape()
    for (const value of forbidden) expect(text.toLowerCase(), value).not.toContain(value.toLowerCase())
  })

  it('still answers when storage fails: storage_up 0, its gauges left out, a warning logged', async () => {
    const storage = t.agentWallet.context.storage
    const spy = vi.spyOn(storage, 'count').mockRejectedValueOnce(new Error('database unreachable'))
    try {
      const { exposition } = await scrape()
      expect(sampleValue(exposition, 'agentwallet_metrics_storage_up')).toBe(0)
      expect(exposition.types.has('agentwallet_transactions')).toBe(false)
      expect(exposition.types.has('agentwallet_http_requests_total')).toBe(true)
      expect(t.logs.join('')).toMatch(/metrics: storage gauges unreadable/)
    } finally {
      spy.mockRestore()
    }
    expect(sampleValue((await scrape()).exposition, 'agentwallet_metrics_storage_up')).toBe(1)
  })
})
