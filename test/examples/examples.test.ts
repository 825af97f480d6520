import { runPolicyEngineConformance, runStorageConformance } from '@agentwallet/core/testing'
import { describe, expect, it } from 'vitest'
import { houseRulesEngine } from '../../examples/customPolicy.js'
import { auditedStorage } from '../../examples/customStorage.js'
import { runInProcessAgent } from '../../examples/inProcessAgent.js'

describe('examples', () => {
  it('the in-process agent sends, waits for approval and gets blocked as documented', async () => {
    const result = await runInProcessAgent()
    expect(result.confirmed.status).toBe('confirmed')
    expect(result.approved.status).toBe('confirmed')
    expect(result.blockedCode).toBe('policy_blocked')
    expect(Number(result.balance.wei)).toBeLessThan(2e18 - 0.6e18)
  })
})

describe('custom policy engine passes the PolicyEngine conformance suite', () => {
  runPolicyEngineConformance({ describe, it, expect }, { create: houseRulesEngine })
})

describe('custom storage passes the Storage conformance suite', () => {
  runStorageConformance({ describe, it, expect }, { create: () => auditedStorage() })
})
