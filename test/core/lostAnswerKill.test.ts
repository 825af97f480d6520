import { parseEther } from 'viem'
import { describe, expect, it } from 'vitest'
import { freshAddress, publicClientOf } from '../helpers/devnetAgentWallet.js'
import { faults } from '../helpers/faultyChain.js'
import { killableServers } from '../helpers/killableServer.js'

const env = {
  AGENTWALLET_MASTER_KEY: 'b2'.repeat(32),
  AGENTWALLET_ADMIN_KEY: `aw_lost_answer_admin_${'5'.repeat(32)}`,
  AGENTWALLET_LOG_LEVEL: 'warn',
}

// `agentwallet serve` on one data dir behind the faulty proxy; its tracker rebroadcasts only after an hour.
const servers = killableServers({ name: 'lost-answer', env, args: ['--rebroadcast-after-ms', '3600000'] })
const { serve, call } = servers

describe('a server killed between a lost answer and the tracker', () => {
  it('is answered queued, not failed, and after kill -9 and a restart the tx is confirmed once', async () => {
    const first = await serve()
    const created = await call(first.url, 'POST', '/wallet/create', { agentName: 'lost-answer' })
    const wallet = created.body.wallet.address as `0x${string}`
    await servers.devnet.faucet(wallet, parseEther('10'))

    // The node takes the tx; the answer, and the "does the node know it" read after it, are lost.
    servers.proxy.setPlan([
      { method: 'eth_sendRawTransaction', fault: faults.lostAnswer(faults.rateLimited), times: 1 },
      { method: 'eth_getTransactionByHash', fault: faults.lostAnswer(faults.rateLimited), times: 1 },
    ])
    const to = freshAddress()
    const sent = await call(first.url, 'POST', `/wallet/${wallet}/send`, { to, value: '0.25' })
    expect(sent.status).toBe(200)
    expect(sent.body.status).not.toBe('failed')
    const hash = sent.body.transaction.hash as `0x${string}`
    const client = publicClientOf(servers.devnet)
    expect((await client.getTransactionReceipt({ hash })).status).toBe('success')

    // Killed before any tracker pass could learn what the chain did (it waits an hour to ask).
    await first.server.kill('SIGKILL')
    servers.proxy.setPlan([])
    const second = await serve()
    await expect
      .poll(async () => (await call(second.url, 'GET', `/wallet/tx/${hash}`)).body.transaction?.status, {
        timeout: 30_000,
      })
      .toBe('confirmed')
    expect(await client.getBalance({ address: to })).toBe(parseEther('0.25'))
    expect(await client.getTransactionCount({ address: wallet })).toBe(1)
    const history = await call(second.url, 'GET', `/wallet/${wallet}/history`)
    expect(history.body.transactions).toHaveLength(1)
    expect(history.body.transactions[0]).toMatchObject({ hash, status: 'confirmed' })
  }, 120_000)
})
