import type { Address, EncodedAccount } from '@solana/kit'
import { getMintDecoder, getTokenDecoder } from '@solana-program/token'
import type { LiteSVM } from 'litesvm'
import { mintSize, tokenAccountSize, tokenPrograms } from './tokenPrograms.js'

export type TokenAccountState = {
  mint: Address
  owner: Address
  amount: bigint
  decimals: number
  state: 'uninitialized' | 'initialized' | 'frozen'
  isNative: boolean
  delegate: Address | null
  programId: Address
}

const states = ['uninitialized', 'initialized', 'frozen'] as const

/** The token account at `account` (with its mint's decimals), or undefined when it is none. */
export function readTokenAccount(svm: LiteSVM, account: EncodedAccount): TokenAccountState | undefined {
  if (!tokenPrograms.includes(account.programAddress) || account.data.length < tokenAccountSize)
    return undefined
  if (account.data.length !== tokenAccountSize && account.data[tokenAccountSize] !== 2) return undefined
  const token = getTokenDecoder().decode(account.data.slice(0, tokenAccountSize))
  const mint = readMint(svm, token.mint)
  return {
    mint: token.mint,
    owner: token.owner,
    amount: token.amount,
    decimals: mint?.decimals ?? 0,
    state: states[token.state] ?? 'uninitialized',
    isNative: token.isNative.__option === 'Some',
    delegate: token.delegate.__option === 'Some' ? token.delegate.value : null,
    programId: account.programAddress,
  }
}

/** The mint at `address`, or undefined when there is none. */
export function readMint(svm: LiteSVM, address: Address) {
  const account = svm.getAccount(address)
  if (!account.exists || !tokenPrograms.includes(account.programAddress)) return undefined
  if (account.data.length < mintSize || account.data.length === tokenAccountSize) return undefined
  return getMintDecoder().decode(account.data.slice(0, mintSize))
}
