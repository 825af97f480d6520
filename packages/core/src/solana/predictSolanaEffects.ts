import {
  address,
  type Base64EncodedWireTransaction,
  type Instruction,
  type TransactionMessageBytesBase64,
} from '@solana/kit'
import { getTokenDecoder, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token'
import type { SolanaChainHandle } from '../chain/types.js'
import type { Effect, Effects } from '../effects/types.js'
import { type DecodeContext, decodeSolanaEffects, type TokenAccountFacts } from './decodeSolanaEffects.js'
import type { SignedSolanaTransaction } from './signSolanaTransaction.js'
import { toSolanaChainError } from './toSolanaChainError.js'

/** Size of an SPL Token account (its rent exemption is what creating one costs). */
const tokenAccountSize = 165n

/**
 * The effects of a signed transaction on `wallet`: decoded from its instructions, then checked against
 * `simulateTransaction` with the wallet's accounts' post-state — the SOL diff (the fee aside) and each
 * token account's diff must be exactly what the decoded effects move. A failed simulation is
 * `reverted`; a diff the decoding does not explain, or an instruction it cannot read, is `unknown`:
 * never "moves nothing".
 * @example const effects = await predictSolanaEffects(chain, wallet.address, instructions, signed)
 */
export async function predictSolanaEffects(
  chain: SolanaChainHandle,
  wallet: string,
  instructions: readonly Instruction[],
  signed: Pick<SignedSolanaTransaction, 'wire' | 'message'>,
): Promise<Effects> {
  try {
    const decoded = await decodeSolanaEffects(instructions, decodeContext(chain, wallet))
    if ('unknown' in decoded) return { status: 'unknown', reason: decoded.unknown }
    const before = await walletAccounts(chain, wallet)
    const addresses = [wallet, ...before.tokens.keys()].map((entry) => address(entry))
    const [{ value: simulation }, { value: fee }] = await Promise.all([
      chain.rpc
        .simulateTransaction(signed.wire as Base64EncodedWireTransaction, {
          encoding: 'base64',
          sigVerify: false,
          accounts: { addresses, encoding: 'base64' },
        })
        .send(),
      chain.rpc.getFeeForMessage(signed.message as TransactionMessageBytesBase64).send(),
    ])
    if (simulation.err) {
      return { status: 'reverted', source: 'simulated', reason: JSON.stringify(simulation.err, bigints) }
    }
    if (fee === null) return { status: 'unknown', reason: 'the transaction’s blockhash has expired' }
    const [walletAfter, ...tokensAfter] = simulation.accounts ?? []
    const seen = new Map<string, bigint>([['native', (walletAfter?.lamports ?? 0n) - before.lamports + fee]])
    ;[...before.tokens.values()].forEach((token, index) => {
      const after = tokensAfter[index]
      const amount = after ? getTokenDecoder().decode(Buffer.from(after.data[0], 'base64')).amount : 0n
      seen.set(token.mint, (seen.get(token.mint) ?? 0n) + amount - token.amount)
    })
    const expected = netByAsset(decoded.effects)
    const assets = new Set([...seen.keys(), ...expected.keys()])
    const differs = [...assets].find((asset) => (seen.get(asset) ?? 0n) !== (expected.get(asset) ?? 0n))
    if (differs !== undefined) {
      return {
        status: 'unknown',
        reason: `the simulation moves ${seen.get(differs) ?? 0n} of ${differs}; the instructions say ${expected.get(differs) ?? 0n}`,
      }
    }
    return { status: 'known', source: 'simulated', effects: decoded.effects }
  } catch (error) {
    throw toSolanaChainError(error, chain.name)
  }
}

/** What the effects do to each asset's balance (`native` for SOL): outs negative, ins positive. */
function netByAsset(effects: readonly Effect[]): Map<string, bigint> {
  const net = new Map<string, bigint>()
  for (const { kind, asset, amount } of effects) {
    if (kind !== 'out' && kind !== 'in') continue
    net.set(asset.address, (net.get(asset.address) ?? 0n) + (kind === 'out' ? -amount : amount))
  }
  return net
}

async function walletAccounts(chain: SolanaChainHandle, wallet: string) {
  const [{ value: lamports }, { value: accounts }] = await Promise.all([
    chain.rpc.getBalance(address(wallet)).send(),
    chain.rpc
      .getTokenAccountsByOwner(
        address(wallet),
        { programId: TOKEN_PROGRAM_ADDRESS },
        { encoding: 'jsonParsed' },
      )
      .send(),
  ])
  const tokens = new Map(
    accounts.map(({ pubkey, account }) => {
      const { mint, tokenAmount } = account.data.parsed.info
      return [pubkey as string, { mint: mint as string, amount: BigInt(tokenAmount.amount) }]
    }),
  )
  return { lamports, tokens }
}

/** The decoder's reads of the chain: token accounts' mint and owner, mints' decimals, rent. */
function decodeContext(chain: SolanaChainHandle, wallet: string): DecodeContext {
  return {
    wallet,
    mints: chain.addressBook.mints ?? [],
    async decimalsOf(mint) {
      const { value } = await chain.rpc.getTokenSupply(address(mint)).send()
      return value.decimals
    },
    async tokenAccount(account): Promise<TokenAccountFacts | undefined> {
      const { value } = await chain.rpc.getAccountInfo(address(account), { encoding: 'jsonParsed' }).send()
      const data = value?.data as
        | { parsed?: { type?: string; info?: { mint: string; owner: string } } }
        | undefined
      if (!value || data?.parsed?.type !== 'account' || !data.parsed.info) return undefined
      return { mint: data.parsed.info.mint, owner: data.parsed.info.owner, lamports: value.lamports }
    },
    tokenAccountRent: () => chain.rpc.getMinimumBalanceForRentExemption(tokenAccountSize).send(),
  }
}

function bigints(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? value.toString() : value
}
