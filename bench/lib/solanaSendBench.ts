import { createAgentWallet, memoryKeyVault, memoryStorage } from '@agentwallet/core'
import { createSolanaDevnet } from '@agentwallet/solana-devnet'
import {
  address,
  appendTransactionMessageInstruction,
  createSolanaRpcFromTransport,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase64EncodedWireTransaction,
  getSignatureFromTransaction,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
} from '@solana/kit'
import { getTransferSolInstruction } from '@solana-program/system'
import type { Options, Row } from './benches.js'

const sol = 1_000_000_000n
const round = (value: number, digits = 1) => Number(value.toFixed(digits))

/**
 * Solana sends on the embedded LiteSVM devnet, one at a time, each to a fresh recipient and awaited
 * to `confirmed`: through AgentWallet in process (effects decoded and simulated, the policy with a
 * `max_per_tx` rule, the audit trail, the ledger, memory storage) beside the floor in the same run — kit
 * alone signing a System transfer, sending it and reading its status. Rounds alternate so load hits
 * both alike; the rate is the median round's.
 */
export async function solanaSendBench({ budgetMs }: Options): Promise<Row[]> {
  const devnet = await createSolanaDevnet()
  const rpc = createSolanaRpcFromTransport(devnet.transport)
  const aw = await createAgentWallet({
    chains: { solana: { family: 'solana', transport: devnet.transport, addressBook: devnet.addressBook } },
    defaultChain: 'solana',
    vault: memoryKeyVault(),
    storage: memoryStorage(),
    // A rule judged on every send (the default rules' 60-an-hour rate limit would stop the bench).
    defaultTenantRules: [{ type: 'max_per_tx', asset: 'native', max: '1' }],
    trackerIntervalMs: 20,
  })
  try {
    const { wallet } = await aw.createWallet({ agentName: 'bench', chain: 'solana' })
    await devnet.airdrop(address(wallet.address), 1_000n * sol)
    const payer = await generateKeyPairSigner()
    await devnet.airdrop(payer.address, 1_000n * sol)

    const ours = async () => {
      const to = (await generateKeyPairSigner()).address
      const { transaction } = await aw.send({ wallet: wallet.address, to, value: '0.001' })
      const done = await aw.waitForTransaction({ transaction: transaction.id })
      if (done.status !== 'confirmed') throw new Error(`a bench send ended ${done.status}`)
    }
    const raw = async () => {
      const to = (await generateKeyPairSigner()).address
      const { value: lifetime } = await rpc.getLatestBlockhash().send()
      const message = pipe(
        createTransactionMessage({ version: 0 }),
        (m) => setTransactionMessageFeePayerSigner(payer, m),
        (m) => setTransactionMessageLifetimeUsingBlockhash(lifetime, m),
        (m) =>
          appendTransactionMessageInstruction(
            getTransferSolInstruction({ source: payer, destination: to, amount: sol / 1_000n }),
            m,
          ),
      )
      const signed = await signTransactionMessageWithSigners(message)
      await rpc.sendTransaction(getBase64EncodedWireTransaction(signed), { encoding: 'base64' }).send()
      const signature = getSignatureFromTransaction(signed)
      for (;;) {
        const { value } = await rpc.getSignatureStatuses([signature]).send()
        const status = value[0]?.confirmationStatus
        if (status === 'confirmed' || status === 'finalized') return
        await new Promise((resolve) => setTimeout(resolve, 5))
      }
    }
    // Warm both paths (module loading, caches) before timing.
    for (let i = 0; i < 5; i++) await Promise.all([ours(), raw()])
    const perRound = 20
    const rates: { ours: number[]; raw: number[] } = { ours: [], raw: [] }
    const deadline = performance.now() + Math.min(budgetMs, 20_000)
    while (performance.now() < deadline || rates.ours.length < 3) {
      for (const [name, send] of [
        ['ours', ours],
        ['raw', raw],
      ] as const) {
        const started = performance.now()
        for (let i = 0; i < perRound; i++) await send()
        rates[name].push((perRound * 1000) / (performance.now() - started))
      }
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
    const value = median(rates.ours)
    const floor = median(rates.raw)
    return [
      {
        bench: 'solana',
        metric: 'SOL send → confirmed, one at a time (in process)',
        value: round(value),
        unit: 'tx/s',
        floor: round(floor),
        ratio: round(value / floor, 2),
        note: `kit alone on the same LiteSVM devnet is the floor; ${rates.ours.length} rounds of ${perRound}`,
      },
    ]
  } finally {
    await aw.close()
    devnet.close()
  }
}
