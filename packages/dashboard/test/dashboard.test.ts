import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { Writable } from 'node:stream'
import { type AgentWallet, createAgentWallet, memoryStorage, relayerAccount } from '@agentwallet/core'
import { createDevnet, type Devnet } from '@agentwallet/devnet'
import {
  createApp,
  createLogger,
  dashboardCsp,
  dashboardExplorerUrl,
  type RunningServer,
} from '@agentwallet/koa'
import { type BrowserContext, chromium, type Page } from 'playwright-core'
import { encodeFunctionData, erc20Abi, formatEther, numberToHex, parseEther, parseUnits } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startX402ResourceServer } from '../../../test/helpers/x402ResourceServer.js'
import { distDir, ensureDashboardBuilt, packageDir } from './helpers/buildDashboard.js'

// Screenshots go where CI collects artifacts (test/artifacts/ is gitignored at the repository root).
const artifacts = resolve(packageDir, '../../test/artifacts/dashboard')
const adminKey = 'aw_test_dashboard_admin_key_0123456789abcd'
const wait = { timeout: 15_000 }

let devnet: Devnet
let agentWallet: AgentWallet
let server: RunningServer
let receiver: { url: string; close(): Promise<void>; statuses: number[] }
let context: BrowserContext
let page: Page
let userDataDir: string
const logs: string[] = []
const consoleErrors: string[] = []
let approverKey: string
let agentKeyId: string
let agentKey: string
let wallet: { address: string }
let subscriptionId: string
let sponsor: { address: `0x${string}`; signer: `0x${string}` } | undefined

async function call(method: string, path: string, body?: unknown, key = adminKey) {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { 'x-api-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return { status: response.status, headers: response.headers, body: (await response.json()) as any }
}

/** A webhook receiver that refuses the first delivery with 400 and accepts the rest. */
async function startFlakyReceiver() {
  const statuses: number[] = []
  const http: Server = createServer((request, response) => {
    request.resume()
    request.on('end', () => {
      const status = statuses.length === 0 ? 400 : 200
      statuses.push(status)
      response.writeHead(status).end(status === 400 ? 'receiver says no' : 'ok')
    })
  })
  await new Promise<void>((done) => http.listen(0, '127.0.0.1', done))
  const { port } = http.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/hook`,
    statuses,
    close: () => new Promise<void>((done) => http.close(() => done())),
  }
}

async function shot(name: string) {
  await page.screenshot({ path: join(artifacts, `${name}.png`), fullPage: true })
}

async function signIn(key: string) {
  await page.getByLabel('API key').fill(key)
  await page.getByRole('button', { name: 'Sign in' }).click()
}

async function send(value: string) {
  const sent = await call(
    'POST',
    `/wallet/${wallet.address}/send`,
    { to: devnet.accounts[3]!.address, value },
    agentKey,
  )
  return sent
}

const payeeName = 'payee-agent.eth'

beforeAll(async () => {
  ensureDashboardBuilt()
  mkdirSync(artifacts, { recursive: true })
  // A short commitment age keeps the ENS registration below a few seconds.
  devnet = await createDevnet({ ensMinCommitmentAge: 1 })
  // The devnet's explorer is this server's dashboard, as `agentwallet serve` wires it: its URL is
  // known once the server listens, so the chain reads it at each link.
  let serverUrl: string | undefined
  agentWallet = await createAgentWallet({
    chains: {
      devnet: {
        provider: devnet.provider,
        chainId: devnet.chain.id,
        contracts: devnet.addressBook,
        explorerUrl: () => serverUrl && dashboardExplorerUrl(serverUrl),
      },
    },
    storage: memoryStorage(),
    defaultTenantRules: [],
    trackerIntervalMs: 20,
    webhooks: { allowPrivateTargets: ['127.0.0.0/8'], intervalMs: 20, backoffBaseMs: 20, backoffMaxMs: 100 },
    // Set by the sponsored-gas test: until then no tenant has a paymaster.
    paymaster: () => sponsor,
  })
  await agentWallet.bootstrapAdmin({ adminKey })
  const destination = new Writable({
    write(chunk, _encoding, done) {
      logs.push(chunk.toString())
      done()
    },
  })
  server = await createApp({
    agentWallet,
    rateLimit: false,
    heartbeatMs: 1000,
    logger: createLogger({ destination }),
    dashboard: { dir: distDir },
  }).listen({ port: 0 })
  serverUrl = server.url

  approverKey = (await call('POST', '/api-keys', { name: 'human', role: 'approver' })).body.key
  const bot = (await call('POST', '/api-keys', { name: 'bot', role: 'agent' })).body
  agentKey = bot.key
  agentKeyId = bot.apiKey.id
  wallet = (await call('POST', '/wallet/create', { agentName: 'research-agent' }, agentKey)).body.wallet
  await devnet.faucet(wallet.address as `0x${string}`, parseEther('10'))
  const policy = await call('POST', '/policy/update', {
    wallet: wallet.address,
    rules: [
      { id: 'cap', type: 'max_per_tx', asset: 'native', max: '2' },
      { id: 'day', type: 'spend_limit', asset: 'native', max: '5', window: '24h' },
      {
        id: 'ask',
        type: 'require_approval',
        asset: 'native',
        above: '0.5',
        description: 'Sends above 0.5 ETH need a human',
      },
    ],
  })
  expect(policy.status).toBe(200)
  // The recipient of the paused sends gets a primary ENS name, so its card can show it.
  // It lives in another tenant, so this tenant's pages show only their own wallets.
  const otherAdmin = (await call('POST', '/tenants', { name: 'payees' })).body.key as string
  const payee = await call(
    'POST',
    '/wallet/import',
    { privateKey: devnet.accounts[3]!.privateKey, agentName: 'payee' },
    otherAdmin,
  )
  expect(payee.status).toBe(201)
  const started = await call(
    'POST',
    '/ens/register',
    { name: payeeName, wallet: payee.body.wallet.address, setReverse: true },
    otherAdmin,
  )
  expect(started.status).toBe(202)
  let registration = started.body.registration
  for (let i = 0; i < 400 && !['registered', 'failed'].includes(registration.status); i++) {
    await new Promise((resolve) => setTimeout(resolve, 50))
    registration = (await call('GET', `/ens/registration/${registration.id}`, undefined, otherAdmin)).body
      .registration
  }
  expect(registration.status).toBe('registered')
  receiver = await startFlakyReceiver()
  const subscribed = await call('POST', '/webhooks/subscribe', {
    url: receiver.url,
    events: ['tx_confirmed'],
  })
  expect(subscribed.status).toBe(201)
  subscriptionId = subscribed.body.subscription.id

  userDataDir = mkdtempSync(join(tmpdir(), 'aw-dashboard-chromium-'))
  context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    viewport: { width: 1200, height: 900 },
  })
  page = context.pages()[0] ?? (await context.newPage())
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text())
  })
  page.on('pageerror', (error) => consoleErrors.push(String(error)))
}, 120_000)

afterAll(async () => {
  await context?.close()
  if (userDataDir) rmSync(userDataDir, { recursive: true, force: true })
  await receiver?.close()
  await server?.close()
  await agentWallet?.close()
  await devnet?.close()
})

describe('static serving', () => {
  it('serves the build under /dashboard with a strict CSP, and nothing outside it', async () => {
    const redirect = await fetch(`${server.url}/dashboard`, { redirect: 'manual' })
    expect(redirect.status).toBe(302)
    expect(redirect.headers.get('location')).toBe('/dashboard/')

    const index = await fetch(`${server.url}/dashboard/`)
    expect(index.status).toBe(200)
    expect(index.headers.get('content-type')).toMatch(/^text\/html/)
    const csp = index.headers.get('content-security-policy')!
    expect(csp).toBe(dashboardCsp)
    for (const directive of [
      "script-src 'self'",
      "style-src 'self'",
      "frame-ancestors 'none'",
      "base-uri 'none'",
    ])
      expect(csp).toContain(directive)
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|https?:/)
    const html = await index.text()
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/) // no inline script
    expect(html).not.toMatch(/https?:\/\//) // no CDN

    const asset = html.match(/src="(\/dashboard\/assets\/[^"]+\.js)"/)![1]!
    const js = await fetch(`${server.url}${asset}`)
    expect(js.status).toBe(200)
    expect(js.headers.get('content-type')).toMatch(/^text\/javascript/)
    expect(js.headers.get('cache-control')).toContain('immutable')

    for (const path of [
      '/dashboard/nope.js',
      '/dashboard/%2e%2e/package.json',
      '/dashboard/..%2fpackage.json',
    ]) {
      const missing = await fetch(`${server.url}${path}`)
      expect(missing.status, path).toBe(404)
      expect(((await missing.json()) as any).error.code).toBe('not_found')
    }
  })
})

describe('the dashboard in headless Chromium', () => {
  it('refuses a wrong key and an agent key, then signs an approver in', async () => {
    await page.goto(`${server.url}/dashboard`)
    expect(page.url()).toBe(`${server.url}/dashboard/`)
    await page.getByRole('heading', { name: 'Sign in' }).waitFor(wait)
    await shot('01-sign-in')

    await signIn('aw_not_a_real_key_0000000000000000000000')
    await page.getByRole('alert').filter({ hasText: 'was not recognised' }).waitFor(wait)

    await signIn(agentKey)
    await page.getByRole('alert').filter({ hasText: 'This is an agent key' }).waitFor(wait)
    await shot('02-sign-in-agent-key-refused')

    await signIn(approverKey)
    await page.getByRole('heading', { name: 'Pending approvals' }).waitFor(wait)
    await page.getByTestId('no-pending').waitFor(wait)
    await page.getByText('Live', { exact: true }).waitFor(wait)
    // The key is in this tab's sessionStorage only: not in the URL, localStorage or a cookie.
    expect(page.url()).not.toContain(approverKey)
    const stored = (await page.evaluate(
      '({ session: JSON.stringify(sessionStorage), local: JSON.stringify(localStorage), cookie: document.cookie })',
    )) as { session: string; local: string; cookie: string }
    expect(stored.session).toContain(approverKey)
    expect(stored.local).not.toContain(approverKey)
    expect(stored.cookie).toBe('')
  })

  it('shows a paused send live, approves it and shows its hash and confirmation', async () => {
    await page.evaluate('window.__noReload = true')
    // A small send first: allowed, confirmed, and its tx_confirmed webhook is refused (400) by the receiver.
    const small = await send('0.1')
    expect(small.status).toBe(200)

    const paused = await send('0.6')
    expect(paused.status).toBe(202)
    const approvalId = paused.body.approval.id as string
    const card = page.locator(`li.approval[data-approval-id="${approvalId}"]`)
    await card.waitFor(wait)
    const text = await card.innerText()
    expect(text).toContain('0.6 ETH')
    expect(text).toContain('research-agent')
    expect(text).toContain(devnet.accounts[3]!.address)
    expect(await card.getByTestId('recipient-ens').innerText()).toBe(payeeName)
    expect(text).toContain('ask')
    // The rule as people named it, and the agent by its key's name, not its id.
    expect(await card.getByTestId('rule-description').innerText()).toBe('Sends above 0.5 ETH need a human')
    expect(await card.getByTestId('requested-by').innerText()).toMatch(/^bot \(agent\)$/)
    expect(text).toMatch(/threshold: 0\.5 ETH/)
    expect(text).toMatch(/requested: 0\.6 ETH/)
    expect(text).toMatch(/23 h 59 min|1 d 0 h/)
    // What it does, as the approver must see it: the effect the approval binds to.
    const effects = card.getByTestId('effects')
    expect(await effects.locator('li[data-effect-kind="out"]').count()).toBe(1)
    expect(await effects.innerText()).toMatch(/Sends 0\.6 ETH to/)
    expect(await effects.innerText()).toContain(devnet.accounts[3]!.address)
    await shot('03-approvals-pending')

    await card.getByRole('button', { name: 'Approve' }).click()
    const resolved = page.locator(`li.resolved[data-approval-id="${approvalId}"]`)
    await resolved.getByText('confirmed', { exact: true }).waitFor(wait)
    const { body: approval } = await call('GET', `/policy/approvals/${approvalId}`)
    expect(approval.approval.status).toBe('approved')
    const tx = await call('GET', `/wallet/tx/${paused.body.transaction.id}`)
    expect(tx.body.status).toBe('confirmed')
    expect(await resolved.innerText()).toContain(tx.body.hash)
    expect(await resolved.getByTestId('resolved-by').innerText()).toMatch(/by human \(approver\)/)
    // A devnet transaction links to the dashboard's own transaction page.
    expect(tx.body.explorer).toBe(`${server.url}/dashboard/#/tx/${tx.body.hash}`)
    expect(await page.evaluate('window.__noReload')).toBe(true)

    // The approval links to its audit entries: the pause, the re-judgement at approval, the resolution.
    await resolved.getByTestId('audit-link').click()
    await page.getByTestId('audit-page').getByTestId('audit-entry').first().waitFor(wait)
    const entries = page.getByTestId('audit-entry')
    expect(await entries.evaluateAll((items) => items.map((item) => item.getAttribute('data-kind')))).toEqual(
      ['policy.decision', 'policy.decision', 'approval.resolved'],
    )
    expect(await entries.last().innerText()).toMatch(/approved by /)
    await page.evaluate("location.hash = '#/approvals'")
    await resolved.waitFor(wait)
  })

  it('rejects another with a reason', async () => {
    const paused = await send('0.7')
    expect(paused.status).toBe(202)
    const approvalId = paused.body.approval.id as string
    const card = page.locator(`li.approval[data-approval-id="${approvalId}"]`)
    await card.waitFor(wait)
    await card.getByRole('button', { name: 'Reject…' }).click()
    await card.getByLabel(/Reason for rejecting/).fill('not this week')
    await card.getByRole('button', { name: 'Confirm reject' }).click()
    const resolved = page.locator(`li.resolved[data-approval-id="${approvalId}"]`)
    await resolved.getByText('not this week').waitFor(wait)
    expect(await resolved.innerText()).toMatch(/rejected/)
    const { body } = await call('GET', `/policy/approvals/${approvalId}`)
    expect(body.approval).toMatchObject({ status: 'rejected', resolutionReason: 'not this week' })
    expect(await page.evaluate('window.__noReload')).toBe(true)
    await shot('04-approvals-resolved')
  })

  it('shows what a paused swap would do: what it sells, the least it receives, and where', async () => {
    const paused = await call(
      'POST',
      '/defi/swap',
      { fromToken: 'ETH', toToken: 'DAI', amount: '0.6', wallet: wallet.address },
      agentKey,
    )
    expect(paused.status).toBe(202)
    const approvalId = paused.body.approval.id as string
    const card = page.locator(`li.approval[data-approval-id="${approvalId}"]`)
    await card.waitFor(wait)
    expect(await card.getByRole('heading').innerText()).toBe('Swap 0.6 ETH → DAI from research-agent')
    const minimum = await card.getByTestId('swap-minimum').innerText()
    expect(minimum).toContain(`${paused.body.minAmountOut} DAI`)
    expect(minimum).toContain(`quoted ${paused.body.best.amountOut} at ${paused.body.venue}`)
    expect(await card.innerText()).toContain(paused.body.transaction.to)
    await shot('04b-approvals-swap')
    // The later pages expect only the sends above in the queue and the spend.
    const rejected = await call('POST', `/policy/approvals/${approvalId}/reject`, {}, approverKey)
    expect(rejected.status).toBe(200)
  })

  it('shows a paused x402 payment: the resource, the payee with its ERC-8004 identity, the amount in USDC and in dollars', async () => {
    const usdc = devnet.addressBook.tokens.find((token) => token.symbol === 'USDC')!.address
    const seller = (await call('POST', '/wallet/create', { agentName: 'x402-seller' })).body.wallet
    await devnet.faucet(seller.address, parseEther('1'))
    const identity = await call('POST', '/identity/create', {
      wallet: seller.address,
      agentName: 'seller',
      agentType: 'data',
    })
    expect(identity.status).toBe(201)
    const resources = await startX402ResourceServer(devnet, usdc, [
      { path: '/report', amount: parseUnits('0.25', 6), payTo: seller.address },
    ])
    try {
      const buyer = (await call('POST', '/wallet/create', { agentName: 'x402-buyer' }, agentKey)).body.wallet
      await devnet.mintToken(usdc, buyer.address, parseUnits('10', 6))
      const rules = [
        { type: 'require_agent_identity' },
        { type: 'require_approval', asset: 'usd', above: '0.1' },
      ]
      expect((await call('POST', '/policy/update', { wallet: buyer.address, rules })).status).toBe(200)
      const url = `${resources.url}/report`
      const paused = await call('POST', '/x402/fetch', { wallet: buyer.address, url }, agentKey)
      expect(paused.status).toBe(202)
      const approvalId = paused.body.approval.id as string
      const card = page.locator(`li.approval[data-approval-id="${approvalId}"]`)
      await card.waitFor(wait)
      expect(await card.getByRole('heading').innerText()).toBe(
        'Pay 0.25 USDC for an HTTP resource (x402) from x402-buyer',
      )
      expect(await card.getByTestId('x402-resource').innerText()).toBe(url)
      expect(await card.getByTestId('payee-agent').innerText()).toContain(
        `ERC-8004 agent #${identity.body.identity.agentId}`,
      )
      expect(await card.getByTestId('amount-usd').innerText()).toContain('$0.25')
      await shot('04c-approvals-x402')
      const rejected = await call('POST', `/policy/approvals/${approvalId}/reject`, {}, approverKey)
      expect(rejected.status).toBe(200)
      expect(resources.served['/report']).toBe(0)
    } finally {
      await resources.close()
    }
  })

  it('leads a paused approve(spender, 500 USDC) with what it does: who may spend which token, in dollars', async () => {
    const usdc = devnet.addressBook.tokens.find((token) => token.symbol === 'USDC')!.address
    const granter = (await call('POST', '/wallet/create', { agentName: 'granter' }, agentKey)).body.wallet
    await devnet.faucet(granter.address, parseEther('1'))
    await devnet.mintToken(usdc, granter.address, parseUnits('1000', 6))
    const rules = [{ id: 'usd-ask', type: 'require_approval', asset: 'usd', above: '100' }]
    expect((await call('POST', '/policy/update', { wallet: granter.address, rules })).status).toBe(200)
    const spender = privateKeyToAccount(generatePrivateKey()).address
    const data = encodeFunctionData({
      abi: erc20Abi,
      functionName: 'approve',
      args: [spender, parseUnits('500', 6)],
    })
    const paused = await call(
      'POST',
      `/wallet/${granter.address}/send`,
      { to: usdc, value: '0', data },
      agentKey,
    )
    expect(paused.status).toBe(202)
    expect(paused.body.approval.headline).toBe(`Allow ${spender} to spend 500 USDC (≈ $500)`)
    const approvalId = paused.body.approval.id as string
    const card = page.locator(`li.approval[data-approval-id="${approvalId}"]`)
    await card.waitFor(wait)
    expect(await card.getByTestId('headline').innerText()).toBe(
      `Allow ${spender.slice(0, 6)}…${spender.slice(-4)} to spend 500 USDC (≈ $500)`,
    )
    // The counterparty is the spender, not the token contract the call goes to; no "0 ETH" amount.
    const text = await card.innerText()
    expect(text).toMatch(new RegExp(`Spender\\s+no name\\s+${spender}`))
    expect(text).not.toContain('0 ETH')
    expect(text).not.toContain(usdc)
    await shot('04d-approvals-approve')
    const rejected = await call('POST', `/policy/approvals/${approvalId}/reject`, {}, approverKey)
    expect(rejected.status).toBe(200)
    // Once decided, it is still told by what it would have done.
    const resolved = page.locator(`li.resolved[data-approval-id="${approvalId}"]`)
    await resolved.waitFor(wait)
    expect(await resolved.getByRole('heading').innerText()).toMatch(
      new RegExp(
        `^Allow ${spender.slice(0, 6)}…${spender.slice(-4)} to spend 500 USDC \\(≈ \\$500\\)\\s+rejected$`,
      ),
    )
  })

  it('shows why screening paused a send: the verdict, its source and the operator list’s reason', async () => {
    const usdc = devnet.addressBook.tokens.find((token) => token.symbol === 'USDC')!.address
    const screened = (await call('POST', '/wallet/create', { agentName: 'screened' }, agentKey)).body.wallet
    await devnet.faucet(screened.address, parseEther('1'))
    const spender = privateKeyToAccount(generatePrivateKey()).address
    const list = (await call('POST', '/screening/lists', { name: 'watchlist', verdict: 'warn' })).body.list
    const added = await call('POST', `/screening/lists/${list.id}/entries`, {
      entries: [{ address: spender, reason: 'new spender, under review' }],
    })
    expect(added.status).toBe(200)
    const rules = [{ id: 'screen', type: 'screen_counterparties' }]
    expect((await call('POST', '/policy/update', { wallet: screened.address, rules })).status).toBe(200)
    const data = encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [spender, 1_000_000n] })
    const paused = await call(
      'POST',
      `/wallet/${screened.address}/send`,
      { to: usdc, value: '0', data },
      agentKey,
    )
    expect(paused.status).toBe(202)
    const card = page.locator(`li.approval[data-approval-id="${paused.body.approval.id}"]`)
    await card.waitFor(wait)
    const verdicts = await card.getByTestId('screening-verdicts').innerText()
    expect(verdicts).toContain('warn by lists: spender')
    expect(verdicts).toContain('(list “watchlist”: new spender, under review)')
    await shot('04e-approvals-screening')
    expect(
      (await call('POST', `/policy/approvals/${paused.body.approval.id}/reject`, {}, approverKey)).status,
    ).toBe(200)
  })

  it('shows wallets with balances, spend against limits as bars, and the history', async () => {
    await page.getByRole('link', { name: 'Wallets' }).click()
    const card = page.locator(`article[data-wallet="${wallet.address}"]`)
    await card.waitFor(wait)
    // 0.1 + 0.6 counted; the rejected 0.7 and the rejected swap released theirs (the engine's own figures).
    const spend = card.getByRole('meter', { name: /Spent in the last 24h/ })
    await expect.poll(() => spend.getAttribute('aria-valuetext'), wait).toBe('0.7 of 5 ETH')
    const cap = card.getByRole('meter', { name: /per-transaction cap/ })
    expect(await cap.getAttribute('aria-valuetext')).toBe('0.6 of 2 ETH')
    const balance = (await call('GET', `/wallet/${wallet.address}/balance`)).body.eth as string
    expect(await card.innerText()).toContain(balance)
    const rows = card.locator('tbody tr')
    expect(await rows.count()).toBe(4)
    const statuses = await card.locator('tbody .badge').allInnerTexts()
    expect(statuses).toEqual(['rejected', 'rejected', 'confirmed', 'confirmed'])
    await shot('05-wallets')

    // An agent's limit (issue #42): shown on each of its wallets, counted over all of them.
    const agentDay = { id: 'agent-day', type: 'spend_limit', asset: 'native', max: '3', window: '24h' }
    expect((await call('POST', '/policy/update', { agent: agentKeyId, rules: [agentDay] })).status).toBe(200)
    await page.reload()
    const agentSpend = card.getByRole('meter', { name: /agent-day; agent bot, all its wallets/ })
    await expect.poll(() => agentSpend.getAttribute('aria-valuetext'), wait).toBe('0.7 of 3 ETH')
    await shot('05b-wallets-agent-limit')
    expect((await call('POST', '/policy/update', { agent: agentKeyId, rules: [] })).status).toBe(200)
  })

  it('warns when a wallet can no longer cover a paused send, and says "no name" once per address', async () => {
    await page.getByRole('navigation').getByRole('link', { name: 'Approvals' }).click()
    const { wallet: lean } = (await call('POST', '/wallet/create', { agentName: 'lean-agent' }, agentKey))
      .body
    await devnet.faucet(lean.address, parseEther('1'))
    await call('POST', '/policy/update', {
      wallet: lean.address,
      rules: [{ id: 'lean-ask', type: 'require_approval', asset: 'native', above: '0.5' }],
    })
    const nameless = privateKeyToAccount(generatePrivateKey()).address
    const paused = await call(
      'POST',
      `/wallet/${lean.address}/send`,
      { to: nameless, value: '0.8' },
      agentKey,
    )
    expect(paused.status).toBe(202)
    const card = page.locator(`li.approval[data-approval-id="${paused.body.approval.id}"]`)
    await card.waitFor(wait)
    expect(await card.getByTestId('recipient-no-ens').innerText()).toBe('no name')
    expect(await card.getByTestId('funds-warning').count()).toBe(0)

    // The money leaves while it waits; the next live event reloads the page, which warns.
    await devnet.provider.request({
      method: 'hardhat_setBalance',
      params: [lean.address, numberToHex(parseEther('0.1'))],
    })
    const small = await call(
      'POST',
      `/wallet/${lean.address}/send`,
      { to: nameless, value: '0.01' },
      agentKey,
    )
    expect(small.status).toBe(200)
    // A live event before the small send's (its acceptance) may reload the page at 0.1 ETH already
    // short: the warning then shows, and is read again until the reload after the send.
    await card.getByTestId('funds-warning').waitFor(wait)
    await expect
      .poll(() => card.getByTestId('funds-warning').innerText(), wait)
      .toMatch(/holds 0\.0\d+ ETH and needs 0\.8 ETH before gas/)
    await shot('04c-approvals-funds-warning')
    // Every reload asked the server once about that address: the "no name" answer was kept.
    const asked = logs
      .join('')
      .split('\n')
      .filter((line) => line.includes(`"path":"/ens/reverse/${nameless}"`))
    expect(asked).toHaveLength(1)
    expect(
      (await call('POST', `/policy/approvals/${paused.body.approval.id}/reject`, {}, approverKey)).status,
    ).toBe(200)
    await page.locator(`li.resolved[data-approval-id="${paused.body.approval.id}"]`).waitFor(wait)
  })

  it('opens a devnet transaction on its own page: status, block, parties, value, the decoded call and events', async () => {
    const usdc = devnet.addressBook.tokens.find((token) => token.symbol === 'USDC')!
    await devnet.mintToken(usdc.address, wallet.address as `0x${string}`, parseUnits('50', 6))
    const to = devnet.accounts[4]!.address
    const sent = await call(
      'POST',
      `/wallet/${wallet.address}/send`,
      { to, value: '5', token: usdc.address },
      agentKey,
    )
    expect(sent.status).toBe(200)
    const done = await call('GET', `/wallet/tx/${sent.body.transaction.id}/wait?timeoutMs=10000`)
    expect(done.body.transaction.status).toBe('confirmed')
    const { hash, explorer } = done.body.transaction
    expect(explorer).toBe(`${server.url}/dashboard/#/tx/${hash}`)

    // From the history, the hash opens the page in this tab (the key stays in its sessionStorage).
    await page.getByRole('navigation').getByRole('link', { name: 'Wallets' }).click()
    const link = page.locator(`article[data-wallet="${wallet.address}"] a.hash[href="#/tx/${hash}"]`)
    await link.waitFor(wait)
    await link.click()
    const view = page.getByTestId('transaction-page')
    await view.getByText('transfer(address,uint256)').waitFor(wait)
    const text = await view.innerText()
    expect(text).toContain(hash)
    expect(text).toContain('confirmed')
    expect(await view.getByTestId('tx-block').innerText()).toContain(
      String(done.body.transaction.blockNumber),
    )
    expect(text).toContain(wallet.address)
    expect(text).toContain('USDC (ERC-20)')
    expect(await view.getByTestId('tx-value').innerText()).toBe('0 ETH')
    expect(await view.getByTestId('tx-call').innerText()).toContain('5 USDC')
    const events = view.getByTestId('tx-event')
    expect(await events.count()).toBe(1)
    expect(await events.first().innerText()).toMatch(/Transfer[\s\S]*5 USDC/)
    await shot('04d-transaction')

    // The link the API hands out opens the same page, here for a plain ETH send.
    const approved = (await call('GET', `/wallet/${wallet.address}/history?limit=25`)).body.transactions.find(
      (entry: { amount: string; status: string }) => entry.amount === '0.6' && entry.status === 'confirmed',
    )
    await page.goto(approved.explorer)
    await view.getByText('A plain transfer').waitFor(wait)
    expect(await view.getByTestId('tx-value').innerText()).toBe('0.6 ETH')
    expect(await view.getByTestId('tx-event').count()).toBe(0)
  })

  it('tells an approver that webhooks are for admins; an admin retries a failed delivery', async () => {
    // The tab is for admins: an approver has no link to it, and its address says why.
    expect(await page.getByRole('navigation').getByRole('link').allInnerTexts()).toEqual([
      'Approvals',
      'Wallets',
    ])
    await page.goto(`${server.url}/dashboard/#/webhooks`)
    await page.getByText('visible to admin keys only').waitFor(wait)

    await page.getByRole('button', { name: 'Sign out' }).click()
    await page.getByRole('heading', { name: 'Sign in' }).waitFor(wait)
    expect(await page.evaluate('sessionStorage.length')).toBe(0)
    // Keyboard only: focus moved to the content, so Tab reaches the key field; Enter submits.
    await page.keyboard.press('Tab')
    expect(await page.evaluate('document.activeElement && document.activeElement.id')).toBe('api-key')
    await page.keyboard.type(adminKey)
    await page.keyboard.press('Enter')
    await page.getByRole('heading', { name: 'Webhooks' }).waitFor(wait)
    expect(await page.getByRole('navigation').getByRole('link').allInnerTexts()).toEqual([
      'Approvals',
      'Wallets',
      'Webhooks',
    ])

    await expect.poll(() => receiver.statuses.length, wait).toBeGreaterThanOrEqual(2)
    const { body } = await call('GET', `/webhooks/logs?subscriptionId=${subscriptionId}&status=dead`)
    expect(body.deliveries).toHaveLength(1)
    const deadId = body.deliveries[0].id as string
    const delivery = page.locator(`li[data-delivery-id="${deadId}"]`)
    await delivery.waitFor(wait)
    expect(await delivery.getAttribute('class')).toContain('delivery-dead')
    expect(await delivery.locator('.attempt-failed').innerText()).toContain('HTTP 400')
    await shot('06-webhooks-failed')

    await delivery.getByRole('button', { name: /Retry delivery/ }).click()
    await delivery.locator('.badge', { hasText: 'delivered' }).waitFor(wait)
    expect(await delivery.locator('.attempt-ok').innerText()).toContain('HTTP 200')
    expect(
      (await call('GET', `/webhooks/logs?subscriptionId=${subscriptionId}&status=dead`)).body.deliveries,
    ).toEqual([])
    await shot('07-webhooks-retried')
  })

  it('shows a smart wallet’s kind and its session key with its on-chain limits and expiry', async () => {
    await devnet.faucet((await relayerAccount(agentWallet.context, 'default')).address, parseEther('5'))
    const smart = (
      await call('POST', '/wallet/create', { agentName: 'smart-agent', kind: 'smart' }, agentKey)
    ).body.wallet
    expect(
      (
        await call('POST', '/policy/update', {
          wallet: smart.address,
          rules: [{ type: 'max_per_tx', asset: 'native', max: '0.25' }],
        })
      ).status,
    ).toBe(200)
    const { sessionKey, expiresAt } = (await call('GET', `/wallet/${smart.address}`)).body.wallet.smart
    await page.goto(`${server.url}/dashboard/#/wallets`)
    const card = page.locator(`article[data-wallet="${smart.address}"]`)
    await card.waitFor(wait)
    expect(await card.innerText()).toContain('smart account')
    const session = card.getByRole('region', { name: 'Session key' })
    const text = await session.innerText()
    expect(text).toContain(sessionKey.slice(0, 6))
    expect(text).toContain('at most 0.25 ETH a call')
    expect(text).toContain(new Date(expiresAt).getFullYear().toString())
  })

  it('shows the gas the tenant’s paymaster sponsored for a smart wallet', async () => {
    await devnet.faucet((await relayerAccount(agentWallet.context, 'default')).address, parseEther('5'))
    const signer = await agentWallet.context.vault.createKey()
    sponsor = { address: await devnet.deployVerifyingPaymaster({ signer, deposit: parseEther('1') }), signer }
    const eoa = (await call('POST', '/wallet/create', { agentName: 'sponsored-agent' }, agentKey)).body.wallet
    await devnet.faucet(eoa.address, parseEther('1'))
    const rules = [{ type: 'sponsor_gas', max: '1', over: 'wallet' }]
    expect((await call('POST', '/policy/update', { wallet: eoa.address, rules })).status).toBe(200)
    expect((await call('POST', '/wallet/upgrade', { wallet: eoa.address })).status).toBe(200)
    const sent = await call(
      'POST',
      `/wallet/${eoa.address}/send`,
      { to: eoa.address, value: '0.01' },
      agentKey,
    )
    expect(sent.status).toBe(200)
    const waited = await call('GET', `/wallet/tx/${sent.body.transaction.id}/wait?timeoutMs=20000`)
    expect(waited.body.transaction.status).toBe('confirmed')
    const { sponsoredGas } = (await call('GET', `/wallet/${eoa.address}`)).body.wallet.smart
    expect(BigInt(sponsoredGas.spent)).toBeGreaterThan(0n)

    // A fresh load: the page may still show the wallets page as an earlier test left it.
    await page.goto(`${server.url}/dashboard/#/wallets`)
    await page.reload()
    const card = page.locator(`article[data-wallet="${eoa.address}"]`)
    await card.waitFor(wait)
    const session = card.getByRole('region', { name: 'Session key' })
    await session.locator('.sponsored-gas').waitFor(wait)
    // The card may first render from a load made before the op was included: wait for the figure.
    await expect
      .poll(() => session.locator('.sponsored-gas').innerText(), wait)
      .toContain(formatEther(BigInt(sponsoredGas.spent)))
    expect(await session.locator('.sponsored-gas').innerText()).toContain('Sponsored gas in the last 24 h')
    await shot('07-sponsored-gas')
  })

  it('fits a phone-width screen', async () => {
    const phoneTx = (await call('GET', `/wallet/${wallet.address}/history?limit=1`)).body.transactions[0].hash
    await page.setViewportSize({ width: 375, height: 812 })
    for (const [name, hash] of [
      ['08-phone-approvals', 'approvals'],
      ['09-phone-wallets', 'wallets'],
      ['10-phone-webhooks', 'webhooks'],
      ['11-phone-transaction', `tx/${phoneTx}`],
    ] as const) {
      await page.goto(`${server.url}/dashboard/#/${hash}`)
      await page.locator('main h1').waitFor(wait)
      await page.locator('.card').first().waitFor(wait)
      await shot(name)
      // The page itself never scrolls sideways (a wide table scrolls inside its own region).
      const overflow = await page.evaluate(
        'document.documentElement.scrollWidth - document.documentElement.clientWidth',
      )
      expect(overflow, name).toBe(0)
    }
  })

  it('left no key in the server logs and no CSP violation in the console', () => {
    const text = logs.join('')
    for (const key of [adminKey, approverKey, agentKey]) expect(text).not.toContain(key)
    expect(consoleErrors.filter((line) => !/status of 40[134]/.test(line))).toEqual([])
  })
})
