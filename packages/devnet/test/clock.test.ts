import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createDevnet, type Devnet } from '@agentwallet/devnet'
import { afterAll, describe, expect, it } from 'vitest'

// Timeouts (an x402 authorization's validBefore, a swap's deadline) mean on the devnet what they mean
// on a real chain only if a block's time is the wall clock's: never behind its parent, and the same
// for several blocks mined within one second.
const dirs: string[] = []
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

async function headTime(devnet: Devnet): Promise<number> {
  const block = (await devnet.provider.request({
    method: 'eth_getBlockByNumber',
    params: ['latest', false],
  })) as {
    timestamp: string
  }
  return Number(block.timestamp)
}

/** Seconds the head block is ahead of the wall clock (negative: behind, within the current second). */
async function ahead(devnet: Devnet): Promise<number> {
  return (await headTime(devnet)) - Date.now() / 1000
}

describe('the devnet keeps the wall clock', () => {
  it('after its deployment burst, and after 200 blocks mined back to back, one at a time or at once', async () => {
    const devnet = await createDevnet()
    try {
      expect(Math.abs(await ahead(devnet))).toBeLessThan(5)
      let parent = await headTime(devnet)
      for (let index = 0; index < 200; index++) {
        await devnet.provider.request({ method: 'evm_mine', params: [] })
        const time = await headTime(devnet)
        expect(time).toBeGreaterThanOrEqual(parent)
        parent = time
      }
      expect(Math.abs(await ahead(devnet))).toBeLessThan(5)
      await devnet.mine(200)
      expect(Math.abs(await ahead(devnet))).toBeLessThan(5)
      // Moved on purpose, it stays moved.
      await devnet.increaseTime(3600)
      await devnet.mine()
      expect(await ahead(devnet)).toBeGreaterThan(3590)
    } finally {
      await devnet.close()
    }
  })

  it('across a restart of a persisted devnet, its replayed blocks as they were', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'aw-devnet-clock-'))
    dirs.push(dataDir)
    const first = await createDevnet({ dataDir })
    await first.mine(50)
    const before = await headTime(first)
    await first.close()
    const again = await createDevnet({ dataDir })
    try {
      expect(await headTime(again)).toBe(before)
      await again.mine(50)
      expect(Math.abs(await ahead(again))).toBeLessThan(5)
    } finally {
      await again.close()
    }
  })
})
