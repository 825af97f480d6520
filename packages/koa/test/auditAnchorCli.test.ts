import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { devnetAccounts } from '@agentwallet/devnet'
import { afterAll, expect, it } from 'vitest'
import { cliProcesses } from '../../../test/helpers/cliProcesses.js'

const adminKey = 'aw_fixed_admin_key_for_anchor_test_01234'
const anchorAccount = devnetAccounts[6]!
const sender = devnetAccounts[7]!
const { run, stop, dataDir, cleanup } = cliProcesses('agentwallet-anchor-', {
  AGENTWALLET_MASTER_KEY: '',
  AGENTWALLET_AUDIT_KEY: '',
  AGENTWALLET_ADMIN_KEY: adminKey,
})

afterAll(cleanup)

it('anchors the head at shutdown from the anchor account, and `audit verify --anchor-rpc` reports a trail cut below it from the chain alone', async () => {
  const served = await run(['serve', '--port', '0', '--data-dir', dataDir], /wallet\/list\n/, {
    AGENTWALLET_AUDIT_ANCHOR_WALLET: anchorAccount.address,
  })
  const url = /listening on (http:\/\/\S+)/.exec(served.out)![1]!
  const call = (method: string, path: string, body?: unknown) =>
    fetch(`${url}${path}`, {
      method,
      headers: { 'x-api-key': adminKey, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  for (const [account, agentName] of [
    [anchorAccount, 'audit-anchor'],
    [sender, 'agent'],
  ] as const)
    expect((await call('POST', '/wallet/import', { privateKey: account.privateKey, agentName })).status).toBe(
      201,
    )
  for (const value of ['0.01', '0.02'])
    expect(
      (await call('POST', `/wallet/${sender.address}/send`, { to: `0x${'00'.repeat(19)}01`, value })).status,
    ).toBe(200)
  await stop(served.child)

  const file = join(dataDir, 'trail.jsonl')
  expect((await run(['audit', 'export', '--data-dir', dataDir, '--out', file])).code).toBe(0)
  const chain = await run(['devnet', '--port', '0', '--data-dir', dataDir], /Serve with it/)
  const rpc = /on (http:\/\/\S+)/.exec(chain.out)![1]!
  const anchored = ['--anchor-rpc', rpc, '--anchor-address', anchorAccount.address]

  const whole = await run(['audit', 'verify', file, ...anchored])
  expect(whole.code, whole.out + whole.err).toBe(0)
  expect(whole.out).toMatch(
    /0 problems; signed by [0-9a-f]{64}; 1 chain anchors of 0x[0-9a-fA-F]{40} checked/,
  )

  // The forger cuts the export back to before the shutdown checkpoint the anchor carries the head of.
  const lines = readFileSync(file, 'utf8').trim().split('\n')
  const shutdown = lines.findLastIndex((line) => line.includes('"kind":"audit.checkpoint"'), lines.length - 2)
  const cut = join(dataDir, 'cut.jsonl')
  writeFileSync(cut, `${lines.slice(0, shutdown - 3).join('\n')}\n`)
  const withoutChain = await run(['audit', 'verify', cut, '--allow-unsigned-tail'])
  expect(withoutChain.code, withoutChain.out).toBe(0)
  const fromChain = await run(['audit', 'verify', cut, ...anchored])
  expect(fromChain.code).toBe(1)
  expect(fromChain.out).toMatch(/the trail stops at seq \d+, short of seq \d+ anchored in tx 0x[0-9a-f]{64}/)
  expect(fromChain.out).toContain('NOT verified')

  const refused = await run(['audit', 'verify', file, '--anchor-rpc', rpc])
  expect(refused.code).not.toBe(0)
  expect(refused.err).toContain('--anchor-address')
  await stop(chain.child)
}, 180_000)
