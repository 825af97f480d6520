import { runPolicyEngineConformance, runStorageConformance } from '@agentwallet/core/testing'
import { describe, expect, it } from 'vitest'
import { houseRulesEngine } from '../../examples/customPolicy.js'
import { auditedStorage } from '../../examples/customStorage.js'
import { runInProcessAgent } from '../../examples/inProcessAgent.js'
import { runSwapWithApproval } from '../../examples/swapWithApproval.js'

describe('examples', () => {
  it('the in-process agent sends, waits for approval and gets blocked as documented', async () => {
    const result = await runInProcessAgent()
    expect(result.confirmed.status).toBe('confirmed')
    expect(result.approved.status).toBe('confirmed')
    expect(result.blockedCode).toBe('policy_blocked')
    expect(Number(result.balance.wei)).toBeLessThan(2e18 - 0.6e18)
  })

  it('the swap example quotes its own source beside the venues and follows a paused swap to the end', async () => {
    const { best, venues, swap } = await runSwapWithApproval()
    expect(venues.some((venue) => venue.startsWith('house-router (uniswap-v3)'))).toBe(true)
    expect(venues.length).toBeGreaterThanOrEqual(4)
    expect(swap).toMatchObject({ status: 'confirmed', step: 'swap', venue: best, error: null })
    expect(BigInt(swap.amountOutRaw!) >= BigInt(swap.minAmountOutRaw!)).toBe(true)
  })
})

describe('custom policy engine passes the PolicyEngine conformance suite', () => {
  runPolicyEngineConformance({ describe, it, expect }, { create: houseRulesEngine })
})

describe('custom storage passes the Storage conformance suite', () => {
  runStorageConformance({ describe, it, expect }, { create: () => auditedStorage() })
})
