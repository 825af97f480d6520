import {
  type Address,
  createWalletClient,
  custom,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  keccak256,
  maxUint256,
  parseEther,
  type TransactionReceipt,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { isRefusal } from '../chain/isRefusal.js'
import { isRevert, toChainError } from '../chain/toChainError.js'
import type { AddressBook, ChainHandle } from '../chain/types.js'
import { uniswapV2RouterAbi } from '../chain/uniswapV2Abi.js'
import { type EvmChainConfig, viemChainProvider } from '../chain/viemChainProvider.js'
import { effectAbis } from '../effects/effectAbis.js'
import { effectsDiffer } from '../effects/effectsDiffer.js'
import { effectsOfLogs } from '../effects/effectsOfLogs.js'
import { predictEffects } from '../effects/predictEffects.js'
import { receiptEffects } from '../effects/receiptEffects.js'
import { simulateV1 } from '../effects/simulateV1.js'
import type { Simulation } from '../effects/simulation.js'
import { traceCall } from '../effects/traceCall.js'
import { type TestRunner, testOrSkip } from './testRunner.js'

/** A node under test: how to reach it, a key it funded, and how it reorganises. */
export type ChainNodeUnderTest = {
  /** The chain as the service is given it; `contracts` must name WETH, a token and a Uniswap V2 venue. */
  chain: EvmChainConfig & { chainId: number; contracts: AddressBook }
  /** A key with ETH that nothing else sends from while the suite runs. */
  fundedKey: Hex
  /**
   * Marks the head; `reorgTo(mark)` then replaces every block mined since with as many or more new
   * ones (anvil: `anvil_reorg`; our devnet: `evm_snapshot` / `evm_revert`, then mining).
   */
  markHead(): Promise<() => Promise<void>>
  close(): Promise<void>
}

export type ChainNodeConformanceOptions = {
  /** Starts the node once for the suite (a node with the protocol set deployed). */
  start: () => Promise<ChainNodeUnderTest>
  /** Groups to skip, each with the reason shown in the test name. */
  skip?: { simulateV1?: string | undefined; traceCall?: string | undefined } | undefined
}

/**
 * Registers the chain-node conformance tests: what the service needs of a node — reads, fee data,
 * sends and the answers it classifies (`isRefusal`, `toChainError`), receipts, logs, block hashes
 * and reorgs, and simulation (`eth_simulateV1` and `debug_traceCall` give the same effects, and
 * those a receipt then shows).
 * @example runChainNodeConformance({ describe, it, expect, beforeAll, afterAll }, { start: () => myNode() })
 */
export const runChainNodeConformance = (
  runner: TestRunner & {
    beforeAll: (fn: () => Promise<void>) => void
    afterAll: (fn: () => Promise<void>) => void
  },
  options: ChainNodeConformanceOptions,
) => {
  const { it, expect } = runner
  let node: ChainNodeUnderTest
  let chain: ChainHandle
  let wallet: ReturnType<typeof createWalletClient>
  let account: ReturnType<typeof privateKeyToAccount>

  /** Sends a signed call from the funded key and waits for its receipt. */
  async function sendAndWait(call: { to: Address; data?: Hex; value?: bigint }): Promise<TransactionReceipt> {
    const hash = await wallet.sendTransaction({ ...call, account, chain: null })
    return chain.client.waitForTransactionReceipt({ hash, pollingInterval: 20 })
  }

  runner.describe('chain node conformance', () => {
    runner.beforeAll(async () => {
      node = await options.start()
      chain = viemChainProvider({ chains: { node: node.chain } }).get('node')
      account = privateKeyToAccount(node.fundedKey)
      wallet = createWalletClient({ transport: custom(chain.client) })
    })
    runner.afterAll(async () => {
      await node?.close()
    })

    it('reads: its chain id, blocks, balances, code and contract state', async () => {
      expect(await chain.client.getChainId()).toBe(node.chain.chainId)
      const head = await chain.client.getBlock({ blockTag: 'latest' })
      expect((await chain.client.getBlock({ blockNumber: head.number })).hash).toBe(head.hash)
      expect((await chain.client.getBalance({ address: account.address })) > 0n).toBe(true)
      expect(
        await chain.client.getBalance({ address: privateKeyToAccount(generatePrivateKey()).address }),
      ).toBe(0n)
      const weth = node.chain.contracts.weth!
      expect(((await chain.client.getCode({ address: weth })) ?? '0x').length > 2).toBe(true)
      const token = node.chain.contracts.tokens![0]!
      expect(
        await chain.client.readContract({ address: token.address, abi: erc20Abi, functionName: 'decimals' }),
      ).toBe(token.decimals)
      // A call the contract refuses is a revert, not an outage.
      const data = encodeFunctionData({ abi: erc20Abi, functionName: 'transferFrom', args: [weth, weth, 1n] })
      const error = await chain.client.call({ to: weth, data }).catch((caught: unknown) => caught)
      expect(isRevert(error)).toBe(true)
    })

    it('fee data: a base fee, fees above it, a transfer estimated at its intrinsic gas', async () => {
      const block = await chain.client.getBlock({ blockTag: 'latest' })
      expect(typeof block.baseFeePerGas).toBe('bigint')
      const fees = await chain.client.estimateFeesPerGas()
      expect(fees.maxFeePerGas >= block.baseFeePerGas!).toBe(true)
      expect(typeof (await chain.client.getGasPrice())).toBe('bigint')
      const gas = await chain.client.estimateGas({ account: account.address, to: account.address, value: 1n })
      // anvil answers 21,000; EDR 21,001 (its estimate's search stops one above): both pay as sent.
      expect(gas >= 21_000n && gas <= 21_001n).toBe(true)
    })

    it('sends: the hash of the signed bytes; the same bytes again, or a used nonce, refused as such', async () => {
      const nonce = await chain.client.getTransactionCount({ address: account.address, blockTag: 'pending' })
      const request = await wallet.prepareTransactionRequest({
        account,
        chain: null,
        to: privateKeyToAccount(generatePrivateKey()).address,
        value: 1n,
        nonce,
      })
      const raw = await account.signTransaction(request as never)
      const hash = await chain.client.sendRawTransaction({ serializedTransaction: raw })
      expect(hash).toBe(keccak256(raw))
      await chain.client.waitForTransactionReceipt({ hash, pollingInterval: 20 })
      // Mined: the same bytes are a used nonce now, a definite refusal by its class.
      const again = await chain.client
        .sendRawTransaction({ serializedTransaction: raw })
        .catch((e: unknown) => e)
      expect(isRefusal(again)).toBe(true)
      const stranger = privateKeyToAccount(generatePrivateKey())
      const broke = await stranger.signTransaction({
        ...(request as object),
        nonce: 0,
        chainId: node.chain.chainId,
      } as never)
      const poor = await chain.client
        .sendRawTransaction({ serializedTransaction: broke })
        .catch((e: unknown) => e)
      expect(isRefusal(poor)).toBe(true)
    })

    it('errors by class: a revert estimated is transaction_failed, a node not answering chain_unavailable', async () => {
      const weth = node.chain.contracts.weth!
      const data = encodeFunctionData({ abi: erc20Abi, functionName: 'transferFrom', args: [weth, weth, 1n] })
      const reverted = await chain.client
        .estimateGas({ account: account.address, to: weth, data })
        .catch((e) => e)
      expect(toChainError(reverted, 'node').code).toBe('transaction_failed')
      const gone = viemChainProvider({
        chains: { gone: { rpcUrl: 'http://127.0.0.1:9', chainId: node.chain.chainId } },
      }).get('gone')
      const unreachable = await gone.client.getBlockNumber().catch((e: unknown) => e)
      expect(toChainError(unreachable, 'gone', { read: true }).code).toBe('chain_unavailable')
      expect(isRefusal(unreachable)).toBe(false)
    })

    it('receipts and logs: the block hash the chain has at that height; the logs by filter', async () => {
      const token = node.chain.contracts.tokens![0]!
      const spender = privateKeyToAccount(generatePrivateKey()).address
      const data = encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [spender, 7n] })
      const receipt = await sendAndWait({ to: token.address, data })
      expect(receipt.status).toBe('success')
      expect((await chain.client.getBlock({ blockNumber: receipt.blockNumber })).hash).toBe(receipt.blockHash)
      const logs = await chain.client.getLogs({
        address: token.address,
        fromBlock: receipt.blockNumber,
        toBlock: receipt.blockNumber,
      })
      expect(logs).toHaveLength(1)
      expect(logs[0]?.transactionHash).toBe(receipt.transactionHash)
      expect(effectsOfLogs(receipt.logs, { holder: account.address })).toMatchObject([
        { kind: 'grant', amount: 7n, counterparty: spender },
      ])
    })

    it('reorgs: a block replaced has a new hash at its height, and its tx no receipt there', async () => {
      const reorg = await node.markHead()
      const receipt = await sendAndWait({ to: privateKeyToAccount(generatePrivateKey()).address, value: 1n })
      await reorg()
      const replaced = await chain.client.getBlock({ blockNumber: receipt.blockNumber })
      expect(replaced.hash === receipt.blockHash).toBe(false)
      const after = await chain.client
        .getTransactionReceipt({ hash: receipt.transactionHash })
        .catch(() => null)
      expect(after === null || after.blockHash !== receipt.blockHash).toBe(true)
    })

    const calls = () => {
      const { weth, tokens, uniswapV2 } = node.chain.contracts
      const usdc = tokens![0]!.address
      return [
        [
          'a WETH deposit',
          {
            to: weth!,
            value: parseEther('1'),
            data: encodeFunctionData({ abi: effectAbis.weth, functionName: 'deposit' }),
          },
        ],
        [
          'an approve',
          {
            to: usdc,
            value: 0n,
            data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [weth!, maxUint256] }),
          },
        ],
        [
          'a swap of ETH for a token',
          {
            to: uniswapV2![0]!.router,
            value: parseEther('0.1'),
            data: encodeFunctionData({
              abi: uniswapV2RouterAbi,
              functionName: 'swapExactETHForTokens',
              args: [0n, [weth!, usdc], account.address, maxUint256],
            }),
          },
        ],
      ] as const
    }

    testOrSkip(
      runner,
      'simulation: eth_simulateV1 and debug_traceCall give the same logs and value moves',
      options.skip?.simulateV1 ?? options.skip?.traceCall,
      async () => {
        for (const [, call] of calls()) {
          const v1 = await simulateV1(chain, account.address, call)
          const traced = await traceCall(chain, account.address, call)
          expect(comparable(v1)).toEqual(comparable(traced))
        }
      },
    )

    it('simulation: a WETH the address book does not name shows its deposit as ETH out and WETH in', async () => {
      const { weth, ...withoutWeth } = node.chain.contracts
      const unnamed = viemChainProvider({ chains: { node: { ...node.chain, contracts: withoutWeth } } }).get(
        'node',
      )
      const [, deposit] = calls()[0]
      const predicted = await predictEffects(unnamed, { from: account.address }, deposit)
      expect(predicted).toMatchObject({ status: 'known', source: 'simulated' })
      const effects = predicted.status === 'known' ? predicted.effects : []
      expect(
        effects.map(({ kind, asset, amount }) => [kind, asset.standard, asset.address, amount]).sort(),
      ).toEqual(
        [
          ['in', 'erc20', weth, deposit.value],
          ['out', 'native', 'native', deposit.value],
        ].sort(),
      )
    })

    it('simulation: the effects predicted are those the receipt then shows', async () => {
      for (const [, call] of calls()) {
        const predicted = await predictEffects(chain, { from: account.address }, call)
        expect(predicted.status).toBe('known')
        const receipt = await sendAndWait(call)
        const actual = receiptEffects(
          chain,
          { holders: [account.address], from: account.address, call, predicted },
          receipt.logs,
        )
        expect(effectsDiffer(predicted, actual, call)).toBeUndefined()
      }
    })
  })
}

/** A simulation's logs and value moves, addresses in lower case and in a fixed order. */
function comparable(simulation: Simulation) {
  if (simulation.status !== 'success') return simulation
  const lower = (text: string) => text.toLowerCase()
  return {
    logs: simulation.logs
      .map((log) => [lower(log.address), ...log.topics.map(lower), lower(log.data)].join(':'))
      .sort(),
    transfers: simulation.transfers.map((t) => `${lower(t.from)}>${lower(t.to)}:${t.value}`).sort(),
  }
}
