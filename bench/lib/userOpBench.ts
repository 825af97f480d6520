import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import {
  createAgentWallet,
  jsonRpcBundler,
  memoryStorage,
  relayerAccount,
  type SignedUserOperation,
} from '@agentwallet/core'
import { createDevnet } from '@agentwallet/devnet'
import { type Abi, createPublicClient, createWalletClient, type Hex, http, parseEther } from 'viem'
import {
  createBundlerClient,
  entryPoint08Abi,
  entryPoint08Address,
  toPackedUserOperation,
  toSimple7702SmartAccount,
} from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { startAlto } from '../../test/helpers/altoBundler.js'
import type { Options, Row } from './benches.js'
import { median } from './benchServer.js'

const require = createRequire(import.meta.url)
const simple7702Account = JSON.parse(
  readFileSync(require.resolve('@account-abstraction/contracts/artifacts/Simple7702Account.json'), 'utf8'),
) as { abi: Abi; bytecode: Hex }
const round = (value: number, digits = 1) => Number(value.toFixed(digits))
/** Fixed limits, so no estimate sits inside the timed round trip (and alto accepts them). */
const gas = { callGasLimit: 100_000n, verificationGasLimit: 200_000n, preVerificationGas: 100_000n }

/**
 * Two parts, each alternating its ways in rounds (so machine load hits each alike), half the budget
 * each. AgentWallet: `send` → confirmed from an EOA wallet and from a smart wallet (its session key's
 * user operation, carried by the relayer bundler), on the in-process devnet. Raw: one value transfer,
 * send → receipt, over the devnet's HTTP JSON-RPC — a plain EOA transaction; a Simple7702Account v0.8
 * user operation in our own `handleOps` transaction; the same op through Pimlico's alto via
 * `jsonRpcBundler`.
 */
export async function userOpBench(options: Options): Promise<Row[]> {
  const half = { ...options, budgetMs: options.budgetMs / 2 }
  return [...(await agentWalletSends(half)), ...(await rawUserOps(half))]
}

async function agentWalletSends({ budgetMs }: Options): Promise<Row[]> {
  const devnet = await createDevnet()
  const aw = await createAgentWallet({
    chains: {
      devnet: { provider: devnet.provider, chainId: devnet.chain.id, contracts: devnet.addressBook },
    },
    storage: memoryStorage(),
    defaultTenantRules: [],
    trackerIntervalMs: 5,
  })
  try {
    await devnet.faucet((await relayerAccount(aw.context, 'default')).address, parseEther('100'))
    const eoa = (await aw.createWallet({ agentName: 'bench-eoa' })).wallet
    const smart = (await aw.createWallet({ agentName: 'bench-smart', kind: 'smart' })).wallet
    for (const wallet of [eoa, smart]) await devnet.faucet(wallet.address, parseEther('100'))
    const recipient = privateKeyToAccount(generatePrivateKey()).address
    const timings: Record<'eoa' | 'smart', number[]> = { eoa: [], smart: [] }
    const sendFrom = async (address: `0x${string}`) => {
      const started = performance.now()
      const sent = await aw.send({ wallet: address, to: recipient, value: '0.000001' })
      const done = await aw.waitForTransaction({ transaction: sent.transaction.id })
      if (done.transaction.status !== 'confirmed')
        throw new Error(`send ${sent.transaction.id} ${done.transaction.status}`)
      return performance.now() - started
    }
    const deadline = performance.now() + budgetMs
    while (performance.now() < deadline) {
      timings.eoa.push(await sendFrom(eoa.address))
      timings.smart.push(await sendFrom(smart.address))
    }
    const floor = median(timings.eoa)
    const row = (metric: string, samples: number[], note: string): Row => ({
      bench: 'userops',
      metric,
      value: round(median(samples), 2),
      unit: 'ms p50',
      floor: round(floor, 2),
      ratio: round(median(samples) / floor, 2),
      note: `${samples.length} sends; ${note}`,
    })
    return [
      row('AgentWallet send → confirmed, EOA wallet', timings.eoa, 'in-process devnet, tracker every 5 ms'),
      row(
        'AgentWallet send → confirmed, smart wallet',
        timings.smart,
        'session key’s user op, relayer bundler',
      ),
    ]
  } finally {
    await aw.close()
    await devnet.close()
  }
}

async function rawUserOps({ budgetMs }: Options): Promise<Row[]> {
  const devnet = await createDevnet()
  const server = await devnet.serve({ port: 0 })
  const transport = http(server.url, { retryCount: 0 })
  const client = createPublicClient({ chain: devnet.chain, transport })
  const wallet = (key: Hex) =>
    createWalletClient({ chain: devnet.chain, transport, account: privateKeyToAccount(key) })
  const deployer = wallet(devnet.accounts[7]!.privateKey)
  const deployed = await deployer.deployContract({
    abi: simple7702Account.abi,
    bytecode: simple7702Account.bytecode,
  })
  const implementation = (await client.waitForTransactionReceipt({ hash: deployed, pollingInterval: 5 }))
    .contractAddress!
  const alto = await startAlto({
    rpcUrl: server.url,
    entryPoint: entryPoint08Address,
    executorKey: devnet.accounts[8]!.privateKey,
    utilityKey: devnet.accounts[9]!.privateKey,
  })
  try {
    const bundler = jsonRpcBundler({ url: alto.url, name: 'alto' })
    const owner = privateKeyToAccount(generatePrivateKey())
    await devnet.faucet(owner.address, parseEther('100'))
    const account = await toSimple7702SmartAccount({ client, owner, implementation })
    // The first op delegates the EOA (EIP-7702) and funds its EntryPoint deposit; untimed.
    const authorization = await owner.signAuthorization({
      chainId: devnet.chain.id,
      contractAddress: implementation,
      nonce: 0,
    })
    const first = await createBundlerClient({
      client,
      transport: http(alto.url, { retryCount: 0 }),
    }).sendUserOperation({
      account,
      authorization,
      calls: [{ to: owner.address, value: 0n }],
    })
    await untilIncluded(bundler, first)
    const eoa = wallet(devnet.accounts[3]!.privateKey)
    const relayer = wallet(devnet.accounts[4]!.privateKey)
    const recipient = privateKeyToAccount(generatePrivateKey()).address
    const fees = await client.estimateFeesPerGas()
    const fee = { maxFeePerGas: fees.maxFeePerGas * 2n, maxPriorityFeePerGas: fees.maxPriorityFeePerGas }

    async function signedOp(): Promise<SignedUserOperation> {
      const nonce = await client.readContract({
        address: entryPoint08Address,
        abi: entryPoint08Abi,
        functionName: 'getNonce',
        args: [owner.address, 0n],
      })
      const op = {
        sender: owner.address,
        nonce,
        callData: await account.encodeCalls([{ to: recipient, value: 1n }]),
        ...gas,
        ...fee,
        signature: '0x' as Hex,
      }
      return { ...op, signature: await account.signUserOperation(op) }
    }
    const timings: Record<'eoa' | 'handleOps' | 'alto', number[]> = { eoa: [], handleOps: [], alto: [] }
    const runs = {
      async eoa() {
        const started = performance.now()
        const hash = await eoa.sendTransaction({ to: recipient, value: 1n })
        await client.waitForTransactionReceipt({ hash, pollingInterval: 2 })
        return performance.now() - started
      },
      async handleOps() {
        const op = await signedOp()
        const started = performance.now()
        const hash = await relayer.writeContract({
          address: entryPoint08Address,
          abi: entryPoint08Abi,
          functionName: 'handleOps',
          args: [[toPackedUserOperation(op)], relayer.account.address],
        })
        await client.waitForTransactionReceipt({ hash, pollingInterval: 2 })
        return performance.now() - started
      },
      async alto() {
        const op = await signedOp()
        const started = performance.now()
        await untilIncluded(bundler, await bundler.sendUserOperation(op, entryPoint08Address))
        return performance.now() - started
      },
    }
    const deadline = performance.now() + budgetMs
    while (performance.now() < deadline) {
      for (const name of ['eoa', 'handleOps', 'alto'] as const) timings[name].push(await runs[name]())
    }
    const floor = median(timings.eoa)
    const row = (metric: string, samples: number[], note: string): Row => ({
      bench: 'userops',
      metric,
      value: round(median(samples), 2),
      unit: 'ms p50',
      floor: round(floor, 2),
      ratio: round(median(samples) / floor, 2),
      note: `${samples.length} sends; ${note}`,
    })
    return [
      row('EOA transfer, send → receipt', timings.eoa, 'the floor: one signed transaction'),
      row(
        'user op, own handleOps tx, send → receipt',
        timings.handleOps,
        'a Simple7702Account op carried by a relayer EOA',
      ),
      row(
        'user op via alto (jsonRpcBundler), send → receipt',
        timings.alto,
        'alto bundles every 10–50 ms; receipt polled',
      ),
    ]
  } finally {
    await alto.stop()
    await devnet.close()
  }
}

async function untilIncluded(bundler: ReturnType<typeof jsonRpcBundler>, hash: Hex): Promise<void> {
  for (let attempt = 0; attempt < 10_000; attempt++) {
    const receipt = await bundler.getUserOperationReceipt(hash)
    if (receipt) {
      if (!receipt.success) throw new Error(`user operation ${hash} reverted`)
      return
    }
    await new Promise((resolve) => setTimeout(resolve, 2))
  }
  throw new Error(`user operation ${hash} was not included`)
}
