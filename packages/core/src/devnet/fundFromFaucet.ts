import { type Address, formatEther, numberToHex, parseEther } from 'viem'
import type { z } from 'zod'
import { chainInfoOf } from '../chain/chainInfoOf.js'
import { devChainIds, isDevChain } from '../chain/devChainIds.js'
import { isMethodMissing } from '../chain/isMethodMissing.js'
import { toChainError } from '../chain/toChainError.js'
import type { AgentWalletContext } from '../context.js'
import { BaseError } from '../errors/baseError.js'
import { ValidationError } from '../errors/errors.js'
import type { Principal } from '../principals/types.js'
import { parseInput } from '../schemas/parseInput.js'
import { addressSchema } from '../schemas/primitives.js'
import { solanaChainOf } from '../solana/solanaChainOf.js'
import { solanaFaucet } from '../solana/solanaFaucet.js'
import { parseAmount } from '../utils/amounts.js'
import type { ChainFamily } from '../vault/types.js'
import { type FaucetReturnType, faucetCapEth, type faucetSchema } from './devnetSchemas.js'
import { mintFromFaucet } from './mintFromFaucet.js'

/** Chain ids taken for development chains unless the operator says otherwise (`devChain`). */
export const devnetChainIds: readonly number[] = devChainIds
const faucetCap = parseEther(faucetCapEth)
const defaultAmount = '10'

/**
 * Adds ETH to an address on a development chain (`devChain`: chain id 31337 or 1337 unless the
 * operator says otherwise, or one marked `--dev-chain`) through the node's set-balance method
 * (`hardhat_setBalance`, which our devnet, anvil and hardhat answer; `anvil_setBalance` where only that
 * is known). Any other chain is `unsupported_chain`; more than the cap is `validation_failed`.
 * @example await fundFromFaucet(ctx, principal, { address: wallet.address, amount: '1' })
 */
export async function fundFromFaucet(
  ctx: AgentWalletContext,
  _principal: Principal,
  input: z.output<typeof faucetSchema>,
): Promise<FaucetReturnType> {
  const { family } = chainInfoOf(ctx.chains, input.chain ?? ctx.chains.defaultChain)
  return faucetOf[family](ctx, input)
}

type Faucet = (ctx: AgentWalletContext, input: z.output<typeof faucetSchema>) => Promise<FaucetReturnType>

/** Each family's faucet, chosen once by the chain's family. */
const faucetOf: Record<ChainFamily, Faucet> = {
  evm: evmFaucet,
  solana: (ctx, input) =>
    solanaFaucet(solanaChainOf(ctx.chains, input.chain ?? ctx.chains.defaultChain), input),
}

async function evmFaucet(
  ctx: AgentWalletContext,
  input: z.output<typeof faucetSchema>,
): Promise<FaucetReturnType> {
  const chain = ctx.chains.get(input.chain ?? ctx.chains.defaultChain)
  const address = parseInput(addressSchema, input.address)
  if (!isDevChain(chain)) {
    throw new BaseError(
      'unsupported_chain',
      `The faucet runs only on a development chain (chain id ${devnetChainIds.join(' or ')}, or one the operator marks with --dev-chain); ${chain.name} is chain ${chain.chainId}`,
      { details: { chain: chain.name, chainId: chain.chainId } },
    )
  }
  if (input.token !== undefined) {
    try {
      return await mintFromFaucet(chain, { ...input, address, token: input.token }, (to, balance) =>
        setBalance(chain.client, to, balance),
      )
    } catch (error) {
      throw toChainError(error, chain.name)
    }
  }
  const amount = parseAmount(input.amount ?? defaultAmount, 18)
  if (amount === 0n || amount > faucetCap) {
    throw new ValidationError(`The faucet gives more than 0 and at most ${faucetCapEth} ETH per call`, {
      details: { reason: 'faucet_cap', cap: faucetCapEth, amount: input.amount },
    })
  }
  try {
    const balance = (await chain.client.getBalance({ address: address })) + amount
    await setBalance(chain.client, address, balance)
    return {
      address: address,
      chain: chain.name,
      amount: formatEther(amount),
      balance: formatEther(balance),
    }
  } catch (error) {
    throw toChainError(error, chain.name, { read: true })
  }
}

type RawRequest = (args: { method: string; params: unknown[] }) => Promise<unknown>

async function setBalance(client: { request: unknown }, address: Address, balance: bigint): Promise<void> {
  // A development node's methods, outside viem's typed RPC schema.
  const request = client.request as RawRequest
  const params = [address, numberToHex(balance)]
  try {
    await request({ method: 'hardhat_setBalance', params })
  } catch (error) {
    if (!isMethodMissing(error)) throw error
    await request({ method: 'anvil_setBalance', params })
  }
}
