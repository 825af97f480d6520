import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { jsonRpcBundler, type SignedUserOperation } from '@agentwallet/core'
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
 * One value transfer, send → receipt, sequential, over the devnet's HTTP JSON-RPC, three ways that
 * alternate in rounds (so machine load hits each alike): a plain EOA transaction; a v0.8 user
 * operation of a Simple7702Account carried by our own `handleOps` transaction (what the relayer
 * bundler sends, without its storage); and the same op through Pimlico's alto via `jsonRpcBundler`.
 * AgentWallet's smart-wallet send is not in this row (it had not landed on this branch).
 */
export async function userOpBench({ budgetMs }: Options): Promise<Row[]> {
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
