import { numberToHex, parseEther } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startTestServer, type TestServer } from './helpers/testServer.js'

let t: TestServer
const fresh = () => privateKeyToAccount(generatePrivateKey()).address

beforeAll(async () => {
  t = await startTestServer()
})
afterAll(async () => t?.close())

type Line = { level: number; msg: string; [field: string]: unknown }
const lines = (): Line[] =>
  t.logs
    .join('')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Line)

/** Waits for the log line with this message about this record, and answers it. */
async function lineAbout(msg: string, field: string, id: string): Promise<Line> {
  await expect
    .poll(() => lines().some((line) => line.msg === msg && line[field] === id), {
      timeout: 15_000,
      message: `a "${msg}" log line with ${field} ${id}`,
    })
    .toBe(true)
  return lines().find((line) => line.msg === msg && line[field] === id)!
}

it('logs a transaction submitted, confirmed and failed, and an approval requested and decided: ids, no secrets', async () => {
  const approverKey = (await t.call('POST', '/api-keys', { body: { name: 'human', role: 'approver' } })).body
  const { wallet } = (await t.call('POST', '/wallet/create', { body: { agentName: 'logged' } })).body
  await t.devnet.faucet(wallet.address, parseEther('2'))
  await t.call('POST', '/policy/update', {
    body: { wallet: wallet.address, rules: [{ type: 'require_approval', asset: 'native', above: '0.5' }] },
  })

  const sent = (
    await t.call('POST', `/wallet/${wallet.address}/send`, { body: { to: fresh(), value: '0.1' } })
  ).body.transaction
  const submitted = await lineAbout('transaction submitted', 'transactionId', sent.id)
  expect(submitted).toMatchObject({
    level: 30,
    event: 'tx.submitted',
    walletId: wallet.id,
    chain: 'devnet',
    hash: sent.hash,
    tenantId: 'default',
  })
  expect(submitted.eventId).toBeTypeOf('string')
  expect(submitted.seq).toBeTypeOf('number')
  const confirmed = await lineAbout('transaction confirmed', 'transactionId', sent.id)
  expect(confirmed).toMatchObject({ event: 'tx.confirmed', hash: sent.hash })
  expect(confirmed.blockNumber).toBeTypeOf('number')

  const paused = (
    await t.call('POST', `/wallet/${wallet.address}/send`, { body: { to: fresh(), value: '0.6' } })
  ).body
  expect(paused.status).toBe('pending_approval')
  const requested = await lineAbout('approval requested', 'approvalId', paused.approval.id)
  expect(requested).toMatchObject({ event: 'policy.hitl', transactionId: paused.transaction.id })

  // The money leaves while the intent waits: approving it fails the intent, unsigned.
  await t.devnet.provider.request({
    method: 'hardhat_setBalance',
    params: [wallet.address, numberToHex(parseEther('0.01'))],
  })
  const approved = await t.call('POST', `/policy/approvals/${paused.approval.id}/approve`, {
    key: approverKey.key,
    body: {},
  })
  expect(approved.body.error.code).toBe('insufficient_funds')
  const decided = await lineAbout('approval decided', 'approvalId', paused.approval.id)
  expect(decided).toMatchObject({
    event: 'approval.resolved',
    resolution: 'approved',
    resolvedBy: approverKey.apiKey.id,
  })
  const failed = await lineAbout('transaction failed', 'transactionId', paused.transaction.id)
  expect(failed).toMatchObject({ event: 'tx.failed', walletId: wallet.id })
  expect(failed.reason).toBeTypeOf('string')

  const text = t.logs.join('')
  const stored = await t.agentWallet.context.storage.get('transactions', sent.id)
  for (const secret of [stored!.rawTx!, t.adminKey, approverKey.key]) expect(text).not.toContain(secret)
  for (const line of lines().filter((entry) => typeof entry.event === 'string'))
    expect(Object.keys(line)).not.toEqual(expect.arrayContaining(['from', 'to', 'amount']))
})
