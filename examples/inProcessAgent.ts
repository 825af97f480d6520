/**
 * An agent that uses AgentWallet in-process: no server, no HTTP.
 * Run: node --import tsx examples/inProcessAgent.ts
 */
import { createAgentWallet, type Principal } from '@agentwallet/core'
import { createDevnet } from '@agentwallet/devnet'
import { parseEther } from 'viem'

export async function runInProcessAgent() {
  const devnet = await createDevnet()
  const aw = await createAgentWallet({
    chains: {
      devnet: { provider: devnet.provider, chainId: devnet.chain.id, contracts: devnet.addressBook },
    },
  })
  try {
    aw.bus.on('tx.confirmed', (event) =>
      console.log(`confirmed ${event.data.hash} in block ${event.data.blockNumber}`),
    )

    // The agent acts as its own principal; the human approver is another one.
    const agent = aw.as({ tenantId: 'default', id: 'research-agent', role: 'agent' })
    const human: Principal = { tenantId: 'default', id: 'alice', role: 'approver' }

    const { wallet } = await agent.createWallet({ agentName: 'research-agent' })
    await devnet.faucet(wallet.address, parseEther('2'))
    await aw.updatePolicyRules({
      wallet: wallet.address,
      rules: [
        { type: 'max_per_tx', asset: 'native', max: '1' },
        { type: 'require_approval', asset: 'native', above: '0.25' },
      ],
    })

    const small = await agent.send({ wallet: wallet.address, to: devnet.accounts[1]!.address, value: '0.1' })
    const confirmed = await agent.waitForTransaction({ transaction: small.transaction.id })

    const large = await agent.send({ wallet: wallet.address, to: devnet.accounts[1]!.address, value: '0.5' })
    if (large.status !== 'pending_approval') throw new Error('expected the 0.5 ETH send to wait for approval')
    const { transaction } = await aw.as(human).approve({ approvalId: large.approval.id })
    const approved = await agent.waitForTransaction({ transaction: transaction.id })

    const blocked = await agent
      .send({ wallet: wallet.address, to: devnet.accounts[1]!.address, value: '1.5' })
      .catch((e) => e)
    return {
      confirmed,
      approved,
      blockedCode: blocked.code as string,
      balance: await agent.getBalance({ wallet: wallet.address }),
    }
  } finally {
    await aw.close()
    await devnet.close()
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await runInProcessAgent()
  console.log({
    small: result.confirmed.status,
    large: result.approved.status,
    blocked: result.blockedCode,
    eth: result.balance.eth,
  })
}
