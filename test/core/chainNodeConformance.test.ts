import { runChainNodeConformance } from '@agentwallet/core/testing'
import { createDevnet } from '@agentwallet/devnet'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { reorgPoint, reorgTo } from '../helpers/reorg.js'

// The embedded devnet (EDR): no eth_simulateV1, so the trace is its only simulation.
runChainNodeConformance(
  { describe, it, expect, beforeAll, afterAll },
  {
    async start() {
      const devnet = await createDevnet({ accounts: 1 })
      return {
        chain: { provider: devnet.provider, chainId: devnet.chain.id, contracts: devnet.addressBook },
        fundedKey: devnet.accounts[0]!.privateKey,
        async markHead() {
          const point = await reorgPoint(devnet)
          return async () => void (await reorgTo(point))
        },
        close: () => devnet.close(),
      }
    },
    skip: { simulateV1: 'EDR answers no eth_simulateV1 (-32004): the trace is its only simulation' },
  },
)
