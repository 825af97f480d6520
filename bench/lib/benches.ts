import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createWalletClient, custom, parseEther } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { defaultTenantRules } from '../../packages/core/src/policy/defaultRules.js'
import { rulesPolicyEngine } from '../../packages/core/src/policy/rulesPolicyEngine.js'
import type { PolicyIntent, ScopedRule } from '../../packages/core/src/policy/types.js'
import { drive, quantile, startBenchServer } from './benchServer.js'
import { seedTransactions, seedWallets } from './seed.js'

export type Row = { bench: string; metric: string; value: number; unit: string; note?: string }
export type Options = { budgetMs: number; txCount: number; seedBudgetMs: number }
const dead = '0x000000000000000000000000000000000000dEaD'
const round = (value: number, digits = 1) => Number(value.toFixed(digits))

/** POST /wallet/create throughput at 0, 10k and 100k existing wallets (seeded through the storage port). */
export async function createsBench({ budgetMs }: Options): Promise<Row[]> {
  const rows: Row[] = []
  const s = await startBenchServer({ track: false })
  try {
    let existing = 0
    for (const level of [0, 10_000, 100_000]) {
      const seedStarted = performance.now()
      await seedWallets(s.storage, s.admin, level - existing)
      const seedMs = performance.now() - seedStarted
      existing = level
      const run = await drive(400, 8, budgetMs / 3, async (i) => {
        const { status } = await s.call('POST', '/wallet/create', { agentName: `bench-${level}-${i}` })
        if (status !== 201) throw new Error(`create answered ${status}`)
      })
      existing += run.done
      rows.push({
        bench: 'wallet create (HTTP)',
        metric: `at ${level.toLocaleString('en')} wallets`,
        value: round(run.done / (run.ms / 1000)),
        unit: 'creates/s',
        note: `${run.done} creates, 8 concurrent, p50 ${round(quantile(run.latencies, 0.5))} ms; seeded ${level.toLocaleString('en')} in ${round(seedMs / 1000)} s`,
      })
    }
  } finally {
    await s.close()
  }
  return rows
}

/** Send throughput: raw viem, core in-process and HTTP, on the same devnet, run one after another. */
export async function sendBench({ budgetMs }: Options): Promise<Row[]> {
  const count = 300
  const s = await startBenchServer({ trackerIntervalMs: 500 })
  try {
    const recipient = s.devnet.accounts[9]!.address
    const account = privateKeyToAccount(s.devnet.accounts[1]!.privateKey)
    const client = createWalletClient({
      account,
      chain: s.devnet.chain,
      transport: custom(s.devnet.provider, { retryCount: 0 }),
    })
    const fees = { maxFeePerGas: 10_000_000_000n, maxPriorityFeePerGas: 1_000_000_000n }
    const raw = await drive(count, 1, budgetMs / 3, async (nonce) => {
      await client.sendTransaction({ to: recipient, value: 1n, nonce, gas: 21_000n, ...fees })
    })
    const wallets = await Promise.all(
      Array.from({ length: 10 }, async (_, i) => {
        const { wallet } = await s.agentWallet.createWallet({ agentName: `send-${i}` })
        return wallet
      }),
    )
    for (const wallet of wallets) await s.devnet.faucet(wallet.address, parseEther('10'))
    const core = await drive(count, 20, budgetMs / 3, async (i) => {
      await s.agentWallet.send({ wallet: wallets[i % 10]!.address, to: recipient, value: '0.000001' })
    })
    const http = await drive(count, 20, budgetMs / 3, async (i) => {
      const { status } = await s.call('POST', `/wallet/${wallets[i % 10]!.address}/send`, {
        to: recipient,
        value: '0.000001',
      })
      if (status !== 200) throw new Error(`send answered ${status}`)
    })
    const rate = (run: { done: number; ms: number }) => run.done / (run.ms / 1000)
    return [
      {
        bench: 'send',
        metric: 'raw viem, 1 account, sequential',
        value: round(rate(raw)),
        unit: 'tx/s',
        note: `${raw.done} sends; baseline 1.00×`,
      },
      {
        bench: 'send',
        metric: 'core in-process, 10 wallets, 20 concurrent',
        value: round(rate(core)),
        unit: 'tx/s',
        note: `${core.done} sends; ${round(rate(core) / rate(raw), 2)}× raw viem`,
      },
      {
        bench: 'send',
        metric: 'HTTP, 10 wallets, 20 concurrent',
        value: round(rate(http)),
        unit: 'tx/s',
        note: `${http.done} sends; ${round(rate(http) / rate(raw), 2)}× raw viem, ${round(rate(http) / rate(core), 2)}× core; p50 ${round(quantile(http.latencies, 0.5))} ms`,
      },
    ]
  } finally {
    await s.close()
  }
}

/** N concurrent HTTP sends from one wallet: until every answer (submitted), and until all confirmed. */
export async function burstBench({ budgetMs }: Options): Promise<Row[]> {
  const n = 100
  const s = await startBenchServer({ trackerIntervalMs: 500 })
  try {
    const { wallet } = await s.agentWallet.createWallet({ agentName: 'burst' })
    const walletId = (await s.storage.query('wallets', { where: { address: wallet.address }, limit: 1 }))[0]!
      .id
    await s.devnet.faucet(wallet.address, parseEther('10'))
    const started = performance.now()
    const answers = await Promise.all(
      Array.from({ length: n }, () =>
        s.call('POST', `/wallet/${wallet.address}/send`, { to: dead, value: '0.000001' }),
      ),
    )
    const submittedMs = performance.now() - started
    const accepted = answers.filter((answer) => answer.status === 200).length
    let confirmed = 0
    while (performance.now() - started < budgetMs) {
      confirmed = await s.storage.count('transactions', { where: { walletId, status: 'confirmed' } })
      if (confirmed >= accepted) break
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    const confirmedMs = performance.now() - started
    return [
      {
        bench: 'one-wallet burst (HTTP)',
        metric: `${n} concurrent sends → all submitted`,
        value: round(submittedMs),
        unit: 'ms',
        note: `${accepted}/${n} accepted; ${round(accepted / (submittedMs / 1000))} tx/s`,
      },
      {
        bench: 'one-wallet burst (HTTP)',
        metric: `${n} concurrent sends → all confirmed`,
        value: round(confirmedMs),
        unit: 'ms',
        note: `${confirmed}/${accepted} confirmed; tracker every 500 ms (server default)`,
      },
    ]
  } finally {
    await s.close()
  }
}

/** Webhook deliveries per second to a local receiver, for events created as fast as core can. */
export async function webhookBench({ budgetMs }: Options): Promise<Row[]> {
  const n = 300
  let received = 0
  const receiver = createServer((request, response) => {
    request.resume()
    request.on('end', () => {
      received++
      response.writeHead(200).end('ok')
    })
  })
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`
  const s = await startBenchServer({ webhooks: { allowPrivateTargets: ['127.0.0.0/8'] } })
  try {
    const { status } = await s.call('POST', '/webhooks/subscribe', { url, events: ['wallet.created'] })
    if (status !== 201) throw new Error(`subscribe answered ${status}`)
    const started = performance.now()
    await drive(n, 8, budgetMs / 2, async (i) => {
      await s.agentWallet.createWallet({ agentName: `hook-${i}` })
    })
    const producedMs = performance.now() - started
    while (received < n && performance.now() - started < budgetMs)
      await new Promise((resolve) => setTimeout(resolve, 10))
    const ms = performance.now() - started
    return [
      {
        bench: 'webhooks',
        metric: 'deliveries/s to a local receiver',
        value: round(received / (ms / 1000)),
        unit: 'deliveries/s',
        note: `${received}/${n} wallet.created events delivered in ${round(ms)} ms (events produced in ${round(producedMs)} ms); worker poll 500 ms (default)`,
      },
    ]
  } finally {
    await s.close()
    await new Promise<void>((resolve) => receiver.close(() => resolve()))
  }
}

/** /wallet/list and /wallet/:address/history?limit=50 latency with many transactions in SQLite. */
export async function historyBench({ budgetMs, txCount, seedBudgetMs }: Options): Promise<Row[]> {
  const s = await startBenchServer({ track: false })
  try {
    const { wallet } = await s.agentWallet.createWallet({ agentName: 'template' })
    await s.devnet.faucet(wallet.address, parseEther('1'))
    const sent = await s.agentWallet.send({ wallet: wallet.address, to: dead, value: '0.000001' })
    const template = (await s.storage.get('transactions', sent.transaction.id))!
    const wallets = await seedWallets(s.storage, s.admin, 1_000)
    const seeded = await seedTransactions(s.storage, wallets, template, txCount, seedBudgetMs)
    const list = await drive(30, 1, budgetMs / 2, async () => {
      const { status } = await s.call('GET', '/wallet/list')
      if (status !== 200) throw new Error(`list answered ${status}`)
    })
    const history = await drive(300, 1, budgetMs / 2, async (i) => {
      const { status, body } = await s.call(
        'GET',
        `/wallet/${wallets[(i * 7919) % wallets.length]!.address}/history?limit=50`,
      )
      if (status !== 200 || body.transactions?.length !== 50) throw new Error(`history answered ${status}`)
    })
    const scope = `${seeded.written.toLocaleString('en')} txs over 1,000 wallets (seeded in ${round(seeded.ms / 1000)} s${seeded.written < txCount ? `, stopped by the time budget before ${txCount.toLocaleString('en')}` : ''})`
    return [
      {
        bench: 'list/history (SQLite)',
        metric: 'GET /wallet/list p50',
        value: round(quantile(list.latencies, 0.5), 2),
        unit: 'ms',
        note: `1,001 wallets in the list; ${scope}`,
      },
      {
        bench: 'list/history (SQLite)',
        metric: 'GET /wallet/list p95',
        value: round(quantile(list.latencies, 0.95), 2),
        unit: 'ms',
        note: `${list.done} requests, sequential`,
      },
      {
        bench: 'list/history (SQLite)',
        metric: 'GET /wallet/:address/history?limit=50 p50',
        value: round(quantile(history.latencies, 0.5), 2),
        unit: 'ms',
        note: scope,
      },
      {
        bench: 'list/history (SQLite)',
        metric: 'GET /wallet/:address/history?limit=50 p95',
        value: round(quantile(history.latencies, 0.95), 2),
        unit: 'ms',
        note: `${history.done} requests, sequential, random wallets`,
      },
    ]
  } finally {
    await s.close()
  }
}

/** Policy evaluation with a 10k-address allowlist (as bench/policy.bench.ts), in this process. */
export async function policyBench({ budgetMs }: Options): Promise<Row[]> {
  const engine = rulesPolicyEngine()
  const hex = () =>
    `0x${Array.from({ length: 40 }, () => Math.floor(Math.random() * 16).toString(16)).join('')}` as const
  const addresses = Array.from({ length: 10_000 }, hex)
  const recipient = addresses[9_999]!
  const rules = engine.validateRules([
    { type: 'allow_recipients', addresses },
    { type: 'allow_chains', chains: ['devnet'] },
    ...defaultTenantRules,
  ])
  const scoped: ScopedRule[] = (JSON.parse(JSON.stringify(rules)) as typeof rules).map((rule) => ({
    scope: 'tenant',
    rule,
  }))
  const now = new Date()
  const intent: PolicyIntent = {
    kind: 'transfer',
    chain: 'devnet',
    from: hex(),
    to: recipient,
    asset: { address: 'native', symbol: 'ETH', decimals: 18 },
    amount: 10n ** 15n,
  }
  const context = { now, rules: scoped, recent: [], isNewRecipient: false }
  for (let i = 0; i < 5_000; i++) engine.evaluate(intent, context)
  const samples: number[] = []
  const started = performance.now()
  while (samples.length < 100_000 && performance.now() - started < budgetMs) {
    const t = performance.now()
    engine.evaluate(intent, context)
    samples.push(performance.now() - t)
  }
  const ms = performance.now() - started
  return [
    {
      bench: 'policy',
      metric: 'evaluate, 10k-address allowlist',
      value: Math.round(samples.length / (ms / 1000)),
      unit: 'evals/s',
      note: `p50 ${round(quantile(samples, 0.5) * 1000, 2)} µs, p99 ${round(quantile(samples, 0.99) * 1000, 2)} µs, ${samples.length} evaluations`,
    },
  ]
}
