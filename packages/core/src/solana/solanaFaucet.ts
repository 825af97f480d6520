import { isAddress, lamports } from '@solana/kit'
import type { Address } from 'viem'
import type { SolanaChainHandle } from '../chain/types.js'
import { ValidationError } from '../errors/errors.js'
import { formatAmount, parseAmount } from '../utils/amounts.js'
import { callSolanaMethod } from './callSolanaMethod.js'
import { readSolanaBalance } from './readSolanaBalance.js'
import { toSolanaChainError } from './toSolanaChainError.js'

/** At most this much a faucet call gives, in whole units: SOL, or a test token. */
const caps = { sol: 100n, token: 1_000_000n }
const defaults = { sol: '10', token: '1000' }

export type SolanaFaucetParameters = {
  address: Address
  amount?: string | undefined
  token?: string | undefined
}

/**
 * Funds an address on a Solana devnet: SOL by `requestAirdrop`, a test token (symbol or mint of the
 * address book) by the devnet's `agentwallet_mintTokens` (its associated token account made when
 * missing). Answers what was added and the balance after, in whole units.
 * @example await solanaFaucet(chain, { address: wallet.address, token: 'USDC', amount: '100' })
 */
export async function solanaFaucet(chain: SolanaChainHandle, input: SolanaFaucetParameters) {
  const owner = input.address
  if (!isAddress(owner)) {
    throw new ValidationError('Address must be a Solana address (base58 of 32 bytes) on a Solana chain', {
      details: { reason: 'not_a_solana_address', chain: chain.name },
    })
  }
  const mint = input.token === undefined ? undefined : mintOf(chain, input.token)
  const decimals = mint?.decimals ?? 9
  const cap = (mint ? caps.token : caps.sol) * 10n ** BigInt(decimals)
  const amount = parseAmount(input.amount ?? (mint ? defaults.token : defaults.sol), decimals)
  if (amount === 0n || amount > cap) {
    throw new ValidationError(
      `The faucet gives more than 0 and at most ${formatAmount(cap, decimals)} per call`,
      {
        details: { reason: 'faucet_cap', cap: formatAmount(cap, decimals), amount: input.amount },
      },
    )
  }
  if (mint) await callSolanaMethod(chain, 'agentwallet_mintTokens', [owner, mint.address, Number(amount)])
  else
    await chain.rpc
      .requestAirdrop(owner, lamports(amount))
      .send()
      .catch((error: unknown) => {
        throw toSolanaChainError(error, chain.name)
      })
  const balance = await readSolanaBalance(chain, owner)
  const after = mint
    ? (balance.tokens.find((token) => token.mint === mint.address)?.raw ?? 0n)
    : balance.lamports
  return {
    address: input.address,
    chain: chain.name,
    ...(mint ? { token: mint.symbol } : {}),
    amount: formatAmount(amount, decimals),
    balance: formatAmount(after, decimals),
  }
}

function mintOf(chain: SolanaChainHandle, token: string) {
  const mint = chain.addressBook.mints?.find((known) => known.symbol === token || known.address === token)
  if (!mint) {
    throw new ValidationError(`The faucet of ${chain.name} has no token "${token}"`, {
      details: {
        reason: 'unknown_token',
        token,
        tokens: chain.addressBook.mints?.map((known) => known.symbol) ?? [],
      },
    })
  }
  return mint
}
