import { runChainNodeConformance } from '@agentwallet/core/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAnvilDevnet } from '../helpers/anvil.js'

// anvil 1.7.1 with the protocol set deployed onto it: eth_simulateV1 and the trace both run.
runChainNodeConformance(
  { describe, it, expect, beforeAll, afterAll },
  {
    async start() {
      const devnet = await startAnvilDevnet()
      const head = async () =>
        BigInt(await devnet.provider.request({ method: 'eth_blockNumber', params: [] }))
      return {
        chain: { rpcUrl: devnet.url, chainId: devnet.chain.id, contracts: devnet.addressBook },
        fundedKey: devnet.accounts[1]!.privateKey,
        async markHead() {
          const mark = await head()
          return async () => {
            // A real reorg: the last blocks replaced by as many new ones, their txs dropped.
            const depth = Number((await head()) - mark)
            await devnet.provider.request({ method: 'anvil_reorg', params: [depth, []] })
          }
        },
        close: () => devnet.close(),
      }
    },
  },
)
