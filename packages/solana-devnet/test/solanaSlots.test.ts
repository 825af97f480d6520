import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { generateKeyPairSigner } from '@solana/kit'
import { afterAll, expect, it } from 'vitest'
import { startSolanaDevnet } from './solanaClients.js'

const dataDir = mkdtempSync(join(tmpdir(), 'solana-devnet-slots-'))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

it('with slotMs, transactions within a slot share its block, and a restart puts them back in it', async () => {
  // A minute-long slot: everything this test sends lands in the block the first transaction opens.
  const first = await startSolanaDevnet({ dataDir, slotMs: 60_000 })
  const wallets = await Promise.all([
    generateKeyPairSigner(),
    generateKeyPairSigner(),
    generateKeyPairSigner(),
  ])
  const signatures = []
  for (const wallet of wallets) signatures.push(await first.devnet.airdrop(wallet.address, 10n ** 9n))
  const { value: statuses } = await first.rpc.getSignatureStatuses(signatures).send()
  const slots = statuses.map((status) => status?.slot)
  expect(new Set(slots).size).toBe(1)
  expect(await first.rpc.getSlot().send()).toBe(slots[0])
  await first.close()

  const second = await startSolanaDevnet({ dataDir, slotMs: 60_000 })
  try {
    const { value: replayed } = await second.rpc.getSignatureStatuses(signatures).send()
    expect(replayed.map((status) => status?.slot)).toEqual(slots)
    // After a restart the next transaction opens a new block.
    const late = await generateKeyPairSigner()
    const signature = await second.devnet.airdrop(late.address, 10n ** 9n)
    const { value } = await second.rpc.getSignatureStatuses([signature]).send()
    expect(value[0]?.slot).toBe((slots[0] ?? 0n) + 1n)
  } finally {
    await second.close()
  }
})
