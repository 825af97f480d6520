import { type Address, formatEther, numberToHex, parseEther } from 'viem'
import type { z } from 'zod'
import { chainInfoOf } from '../chain/chainInfoOf.js'
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

/** Chain ids of local development chains (the devnet, anvil, hardhat): the only ones with a faucet. */
export const devnetChainIds: readonly number[] = [31337, 1337]
const faucetCap = parseEther(faucetCapEth)
const defaultAmount = '10'

/**
 * Adds ETH to an address on a devnet chain (`hardhat_setBalance`, which the embedded devnet, anvil
 * and hardhat answer). Any other chain is `unsupported_chain`; more than the cap is `validation_failed`.
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
  if (input.token !== undefined) {
    throw new ValidationError('The EVM devnet faucet gives ETH only (`token` is for a Solana devnet)', {
      details: { reason: 'faucet_token', chain: chain.name },
    })
  }
  const address = parseInput(addressSchema, input.address)
  if (!devnetChainIds.includes(chain.chainId)) {
    throw new BaseError(
      'unsupported_chain',
      `The faucet runs only on a devnet chain (chain id ${devnetChainIds.join(' or ')}); ${chain.name} is chain ${chain.chainId}`,
      { details: { chain: chain.name, chainId: chain.chainId } },
    )
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

function setBalance(client: { request: unknown }, address: Address, balance: bigint): Promise<unknown> {
  // A development node's method, outside viem's typed RPC schema.
  return (client.request as RawRequest)({
    method: 'hardhat_setBalance',
    params: [address, numberToHex(balance)],
  })
}
