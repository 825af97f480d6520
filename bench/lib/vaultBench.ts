import { randomBytes } from 'node:crypto'
import { localKeyVault, memoryStorage, storageKeyRecordStore } from '@agentwallet/core'
import { pkcs11KeyVault } from '@agentwallet/vault-pkcs11'
import { type Hex, parseEther } from 'viem'
import { createSoftHsmToken } from '../../test/helpers/softHsmToken.js'
import type { Options, Row } from './benches.js'
import { type BenchServer, drive, median, quantile, startBenchServer } from './benchServer.js'

const round = (value: number, digits = 1) => Number(value.toFixed(digits))
const hashOf = (i: number): Hex => `0x${(i + 1).toString(16).padStart(64, '0')}`

/**
 * Signatures per second through the KeyVault port on a SoftHSM2 token beside the local vault, and
 * HTTP sends on a server over each, in alternating rounds of one run (so load hits both alike).
 * Needs Debian's softhsm2 (scripts/ensure-test-services.sh).
 */
export async function vaultBench({ budgetMs }: Options): Promise<Row[]> {
  // SoftHSM2 reads its configuration once per process: this bench's token, before the vault connects.
  const token = createSoftHsmToken({ label: 'agentwallet-bench', useInProcess: true })
  const hsm = pkcs11KeyVault({ module: token.module, tokenLabel: token.tokenLabel, pin: token.pin })
  const local = localKeyVault({ masterKey: randomBytes(32), store: storageKeyRecordStore(memoryStorage()) })
  try {
    return [...(await signatureRows(hsm, local, budgetMs / 2)), ...(await sendRows(hsm, budgetMs / 2))]
  } finally {
    await hsm.close()
    token.cleanup()
  }
}

type Vault = ReturnType<typeof localKeyVault> | ReturnType<typeof pkcs11KeyVault>

async function signatureRows(hsm: Vault, local: Vault, budgetMs: number): Promise<Row[]> {
  const count = 400
  const concurrency = 8
  const signerOf = async (vault: Vault) => vault.getSigner(await vault.createKey())
  const signers = { hsm: await signerOf(hsm), local: await signerOf(local) }
  const rates = { hsm: [] as number[], local: [] as number[] }
  const deadline = performance.now() + budgetMs
  for (let r = 0; r < 3 && performance.now() < deadline; r++) {
    for (const name of ['local', 'hsm'] as const) {
      const run = await drive(count, concurrency, budgetMs / 6, async (i) => {
        await signers[name].sign!({ hash: hashOf(i) })
      })
      rates[name].push(run.done / (run.ms / 1000))
    }
  }
  const value = median(rates.hsm)
  const floor = median(rates.local)
  const pkcs11 = hsm as ReturnType<typeof pkcs11KeyVault>
  return [
    {
      bench: 'vault signatures',
      metric: 'SoftHSM2 (PKCS#11) ÷ local vault',
      value: round(value),
      unit: 'sig/s',
      floor: round(floor),
      ratio: round(value / floor, 3),
      note: `${rates.hsm.length} alternating rounds of ${count}, ${concurrency} concurrent, medians; each checked by recovery; bad signatures retried: ${pkcs11.stats().badSignatures} of ${pkcs11.stats().signatures}`,
    },
  ]
}

async function sendRows(hsm: Vault, budgetMs: number): Promise<Row[]> {
  const count = 100
  const servers: Record<'local' | 'hsm', BenchServer> = {
    local: await startBenchServer({ trackerIntervalMs: 500 }),
    hsm: await startBenchServer({ trackerIntervalMs: 500, vault: hsm }),
  }
  try {
    const wallets = { local: await walletsOf(servers.local), hsm: await walletsOf(servers.hsm) }
    const rates = { local: [] as number[], hsm: [] as number[] }
    const latencies = { local: [] as number[], hsm: [] as number[] }
    const deadline = performance.now() + budgetMs
    for (let r = 0; r < 3 && performance.now() < deadline; r++) {
      for (const name of ['local', 'hsm'] as const) {
        const s = servers[name]
        const run = await drive(count, 20, budgetMs / 6, async (i) => {
          const to = s.devnet.accounts[9]!.address
          const { status } = await s.call('POST', `/wallet/${wallets[name][i % 10]}/send`, {
            to,
            value: '0.000001',
          })
          if (status !== 200) throw new Error(`send answered ${status}`)
        })
        rates[name].push(run.done / (run.ms / 1000))
        latencies[name].push(...run.latencies)
      }
    }
    return (['local', 'hsm'] as const).map((name) => ({
      bench: 'send (HTTP) by vault',
      metric: name === 'local' ? 'local vault' : 'SoftHSM2 (PKCS#11) vault ÷ local vault',
      value: round(median(rates[name])),
      unit: 'tx/s',
      ...(name === 'hsm'
        ? { floor: round(median(rates.local)), ratio: round(median(rates.hsm) / median(rates.local), 2) }
        : {}),
      note: `10 wallets, 20 concurrent, ${rates[name].length} alternating rounds of ${count}, medians; p50 ${round(quantile(latencies[name], 0.5))} ms`,
    }))
  } finally {
    await servers.local.close()
    await servers.hsm.close()
  }
}

async function walletsOf(s: BenchServer): Promise<string[]> {
  const wallets = await Promise.all(
    Array.from(
      { length: 10 },
      async (_, i) => (await s.agentWallet.createWallet({ agentName: `vault-${i}` })).wallet,
    ),
  )
  for (const wallet of wallets) await s.devnet.faucet(wallet.address, parseEther('10'))
  return wallets.map((wallet) => wallet.address)
}
