import { type Address, encodeFunctionData, erc20Abi, parseEther, parseUnits } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type HarnessServer, startHarnessServer } from '../harness/harnessServer.js'
import { freshAddress, publicClientOf } from '../helpers/devnetAgentWallet.js'
import { startX402ResourceServer, type X402ResourceServer } from '../helpers/x402ResourceServer.js'

// Over HTTP: an address an admin lists through the API is refused as a recipient, as the spender of an
// approve and as an x402 payee, before anything is signed (403 naming the list and the reason).
let h: HarnessServer
let admin: string
let agent: string
let wallet: Address
let usdc: Address
let resources: X402ResourceServer
const attacker = freshAddress()
const friend = freshAddress()

beforeAll(async () => {
  h = await startHarnessServer()
  admin = h.adminKey
  agent = (await h.call('POST', '/api-keys', { key: admin, body: { name: 'screened-agent', role: 'agent' } }))
    .body.key
  wallet = (await h.call('POST', '/wallet/create', { key: agent, body: { agentName: 'screened' } })).body
    .wallet.address
  await h.devnet.faucet(wallet, parseEther('10'))
  usdc = h.devnet.addressBook.tokens.find((token) => token.symbol === 'USDC')!.address
  await h.devnet.mintToken(usdc, wallet, parseUnits('100', 6))
  resources = await startX402ResourceServer(h.devnet, usdc, [
    { path: '/attacker', amount: 10_000n, payTo: attacker },
    { path: '/friend', amount: 10_000n, payTo: friend },
  ])
  const rules = await h.call('POST', '/policy/update', {
    key: admin,
    body: { rules: [{ id: 'screen', type: 'screen_counterparties' }] },
  })
  expect(rules.status).toBe(200)
})
afterAll(async () => {
  await resources?.close()
  await h?.close()
})

async function listWith(address: Address, reason: string, name = 'drainers'): Promise<string> {
  const created = await h.call('POST', '/screening/lists', { key: admin, body: { name } })
  expect(created.status).toBe(201)
  expect(created.body.list).toMatchObject({ name, shared: false, verdict: 'block', entries: 0 })
  const added = await h.call('POST', `/screening/lists/${created.body.list.id}/entries`, {
    key: admin,
    body: { entries: [{ address, reason }] },
  })
  expect(added.status).toBe(200)
  expect(added.body).toMatchObject({ added: 1, list: { entries: 1 } })
  return created.body.list.id
}

const nonce = () => publicClientOf(h.devnet).getTransactionCount({ address: wallet })

describe('screening lists over HTTP', () => {
  it('refuses a listed recipient, spender and x402 payee before signing, and lets them through once removed', async () => {
    const list = await listWith(attacker, 'drained a treasury on 2026-11-20')
    const before = await nonce()
    const expected = {
      ruleId: 'screen',
      ruleType: 'screen_counterparties',
      subject: attacker,
      verdict: 'block',
      source: 'lists',
      lists: [
        { listId: list, listName: 'drainers', shared: false, reason: 'drained a treasury on 2026-11-20' },
      ],
    }

    const sent = await h.call('POST', `/wallet/${wallet}/send`, {
      key: agent,
      body: { to: attacker, value: '0.01' },
    })
    expect(sent.status).toBe(403)
    expect(sent.body.error).toMatchObject({
      code: 'policy_blocked',
      details: { ...expected, roles: ['recipient'] },
    })

    // approve(attacker, 5 USDC) is sent to the token: the attacker is the spender of its effects.
    const data = encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [attacker, 5_000_000n] })
    const approved = await h.call('POST', `/wallet/${wallet}/send`, {
      key: agent,
      body: { to: usdc, value: '0', data },
    })
    expect(approved.status).toBe(403)
    expect(approved.body.error).toMatchObject({
      code: 'policy_blocked',
      details: { ...expected, roles: ['spender'] },
    })
    // A transfer of USDC to the attacker written as calldata names it as recipient too.
    const transfer = encodeFunctionData({
      abi: erc20Abi,
      functionName: 'transfer',
      args: [attacker, 1_000_000n],
    })
    const transferred = await h.call('POST', `/wallet/${wallet}/send`, {
      key: agent,
      body: { to: usdc, value: '0', data: transfer },
    })
    expect(transferred.body.error).toMatchObject({
      code: 'policy_blocked',
      details: { ...expected, roles: ['recipient'] },
    })

    const paid = await h.call('POST', '/x402/fetch', {
      key: agent,
      body: { wallet, url: `${resources.url}/attacker` },
    })
    expect(paid.status).toBe(403)
    expect(paid.body.error).toMatchObject({
      code: 'policy_blocked',
      details: { ...expected, roles: ['payee'] },
    })
    expect(resources.served['/attacker']).toBe(0)

    // Nothing was signed: the wallet's nonce did not move, and the refused sends are stored blocked.
    expect(await nonce()).toBe(before)
    const history = await h.call('GET', `/wallet/${wallet}/history`, { key: agent })
    expect(
      history.body.transactions.filter((tx: { status: string }) => tx.status === 'blocked'),
    ).toHaveLength(4)

    // The dry run shows every verdict.
    const dry = await h.call('POST', '/policy/evaluate', {
      key: agent,
      body: { wallet, to: friend, value: '0.01' },
    })
    expect(dry.body.decision).toMatchObject({ decision: 'allow' })
    const outcome = dry.body.decision.outcomes.find((entry: { ruleId: string }) => entry.ruleId === 'screen')
    expect(outcome.details.verdicts).toEqual([
      { subject: friend, roles: ['recipient'], verdict: 'clear', source: 'lists', reasons: [] },
    ])

    const removed = await h.call('POST', `/screening/lists/${list}/entries/remove`, {
      key: admin,
      body: { addresses: [attacker.toLowerCase()], reason: 'false positive, cleared by compliance' },
    })
    expect(removed.body).toMatchObject({ removed: 1, list: { entries: 0 } })
    const again = await h.call('POST', `/wallet/${wallet}/send`, {
      key: agent,
      body: { to: attacker, value: '0.01' },
    })
    expect(again.status).toBe(200)
    expect(again.body.transaction.hash).toMatch(/^0x[0-9a-f]{64}$/)
    const paidNow = await h.call('POST', '/x402/fetch', {
      key: agent,
      body: { wallet, url: `${resources.url}/attacker` },
    })
    expect(paidNow.status).toBe(200)
  })

  it('refuses a Safe proposal paying a listed address before its proposer signs it', async () => {
    await listWith(attacker, 'phishing payee', 'safe-targets')
    const deployed = await h.call('POST', '/multisig/deploy', {
      key: agent,
      body: { owners: [wallet], threshold: 1, wallet },
    })
    expect(deployed.status).toBe(201)
    const safe = deployed.body.safe?.address ?? deployed.body.multisig?.address ?? deployed.body.address
    expect(typeof safe).toBe('string')
    const proposed = await h.call('POST', `/multisig/${safe}/propose`, {
      key: agent,
      body: { wallet, to: attacker, value: '0.01' },
    })
    expect(proposed.status).toBe(403)
    expect(proposed.body.error).toMatchObject({
      code: 'policy_blocked',
      details: { ruleId: 'screen', safe, subject: attacker, roles: ['recipient'], source: 'lists' },
    })
    expect(proposed.body.error.details.lists).toContainEqual(
      expect.objectContaining({ reason: 'phishing payee' }),
    )
    const fine = await h.call('POST', `/multisig/${safe}/propose`, {
      key: agent,
      body: { wallet, to: friend, value: '0' },
    })
    expect(fine.status).toBe(201)
  })

  it('pauses for a warn list, and screens again when approved: listed since, it is refused then', async () => {
    const spender = freshAddress()
    const watch = await h.call('POST', '/screening/lists', {
      key: admin,
      body: { name: 'watch', verdict: 'warn' },
    })
    await h.call('POST', `/screening/lists/${watch.body.list.id}/entries`, {
      key: admin,
      body: { entries: [{ address: spender, reason: 'new spender, under review' }] },
    })
    const data = encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [spender, 1_000_000n] })
    const paused = await h.call('POST', `/wallet/${wallet}/send`, {
      key: agent,
      body: { to: usdc, value: '0', data },
    })
    expect(paused.status).toBe(202)
    expect(paused.body.approval.reason).toBe(
      `Spender ${spender} is flagged by screening source "lists": on list "watch": new spender, under review`,
    )
    const list = await listWith(spender, 'confirmed drainer', 'confirmed')
    const approved = await h.call('POST', `/policy/approvals/${paused.body.approval.id}/approve`, {
      key: admin,
      body: {},
    })
    expect(approved.status).toBe(403)
    expect(approved.body.error).toMatchObject({
      code: 'policy_blocked',
      details: {
        verdict: 'block',
        lists: expect.arrayContaining([
          expect.objectContaining({ listId: list, reason: 'confirmed drainer' }),
        ]),
      },
    })
  })

  it('imports a CSV and OFAC SDN files made here; an SDN-listed ETH address is refused with its SDN reason', async () => {
    const { body } = await h.call('POST', '/screening/lists', { key: admin, body: { name: 'OFAC SDN' } })
    const list = body.list.id
    const sdnEth = freshAddress()
    const csvListed = freshAddress()
    const sdnCsv = `30552,"TEST CYBER ACTOR",-0- ,"CYBER2",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,"Digital Currency Address - XBT 12QtD5BFwRsdNsAZY76UVE1xyCGNTojH9h; alt. Digital Currency Address - ETH ${sdnEth};"\n`
    const imported = await h.call('POST', `/screening/lists/${list}/import`, {
      key: admin,
      body: { format: 'ofac_sdn_csv', content: sdnCsv },
    })
    expect(imported.status).toBe(200)
    expect(imported.body).toMatchObject({
      added: 1,
      skippedCount: 1,
      skipped: [{ line: 1, value: '12QtD5BFwRsdNsAZY76UVE1xyCGNTojH9h' }],
      list: { entries: 1 },
    })
    const csv = `address,reason\n${csvListed},known scam\nnot-an-address,oops\n`
    const fromCsv = await h.call('POST', `/screening/lists/${list}/import`, {
      key: admin,
      body: { format: 'csv', content: csv },
    })
    expect(fromCsv.body).toMatchObject({
      added: 1,
      skippedCount: 1,
      skipped: [{ line: 3, value: 'not-an-address' }],
    })
    const entries = await h.call('GET', `/screening/lists/${list}/entries`, { key: admin })
    expect(entries.body.count).toBe(2)

    const sent = await h.call('POST', `/wallet/${wallet}/send`, {
      key: agent,
      body: { to: sdnEth, value: '0.01' },
    })
    expect(sent.status).toBe(403)
    expect(sent.body.error.details.lists).toEqual([
      {
        listId: list,
        listName: 'OFAC SDN',
        shared: false,
        reason: 'OFAC SDN: TEST CYBER ACTOR (ent_num 30552, CYBER2; ETH)',
      },
    ])
  })

  it('refuses bad input with 400 and lets only admins change lists (a shared one: the root admin only)', async () => {
    const { body } = await h.call('POST', '/screening/lists', { key: admin, body: { name: 'checks' } })
    const list = body.list.id
    const badChecksum = attacker.toLowerCase().replace(/[a-f]/, (letter) => letter.toUpperCase())
    for (const entries of [
      [{ address: badChecksum, reason: 'x' }],
      [{ address: attacker, reason: '' }],
      [],
    ]) {
      const answer = await h.call('POST', `/screening/lists/${list}/entries`, {
        key: admin,
        body: { entries },
      })
      expect(answer.status).toBe(400)
      expect(answer.body.error.code).toBe('validation_failed')
    }
    const unknownFormat = await h.call('POST', `/screening/lists/${list}/import`, {
      key: admin,
      body: { format: 'xlsx', content: 'x' },
    })
    expect(unknownFormat.body.error.code).toBe('validation_failed')

    const byAgent = await h.call('POST', '/screening/lists', { key: agent, body: { name: 'mine' } })
    expect(byAgent.status).toBe(403)
    expect((await h.call('GET', '/screening/lists', { key: agent })).status).toBe(403)
    expect(
      (
        await h.call('POST', `/screening/lists/${list}/entries`, {
          key: agent,
          body: { entries: [{ address: friend, reason: 'x' }] },
        })
      ).status,
    ).toBe(403)

    const tenant = await h.call('POST', '/tenants', { key: admin, body: { name: 'screened-tenant-b' } })
    const adminB = tenant.body.key ?? tenant.body.adminKey?.key
    expect(typeof adminB).toBe('string')
    expect((await h.call('GET', `/screening/lists/${list}/entries`, { key: adminB })).status).toBe(404)
    const sharedByB = await h.call('POST', '/screening/lists', {
      key: adminB,
      body: { name: 'all', shared: true },
    })
    expect(sharedByB.status).toBe(403)
    expect(sharedByB.body.error.code).toBe('forbidden')
    const shared = await h.call('POST', '/screening/lists', {
      key: admin,
      body: { name: 'operator-wide', shared: true },
    })
    expect(shared.status).toBe(201)
    const seenByB = await h.call('GET', '/screening/lists', { key: adminB })
    expect(seenByB.body.lists.map((entry: { id: string }) => entry.id)).toEqual([shared.body.list.id])
    const changedByB = await h.call('POST', `/screening/lists/${shared.body.list.id}/entries`, {
      key: adminB,
      body: { entries: [{ address: friend, reason: 'x' }] },
    })
    expect(changedByB.status).toBe(403)
  })

  it('counts verdicts on /metrics', async () => {
    const metrics = await h.call('GET', '/metrics', {
      headers: { authorization: `Bearer ${h.metricsToken}` },
    })
    expect(metrics.status).toBe(200)
    const block = /agentwallet_screening_verdicts_total\{source="lists",verdict="block"\} (\d+)/.exec(
      metrics.text,
    )
    expect(Number(block?.[1])).toBeGreaterThanOrEqual(5)
    expect(metrics.text).toMatch(/agentwallet_screening_outages_total\{source="lists"\} 0/)
  })
})
