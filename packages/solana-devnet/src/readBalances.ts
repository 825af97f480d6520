import type { Address } from '@solana/kit'
import type { LiteSVM } from 'litesvm'
import { uiTokenAmount } from './formatUiAmount.js'
import { readTokenAccount } from './readTokenAccount.js'

/** One entry of `preTokenBalances` / `postTokenBalances`, as Agave writes them. */
export type TokenBalance = {
  accountIndex: number
  mint: Address
  owner: Address
  programId: Address
  uiTokenAmount: ReturnType<typeof uiTokenAmount>
}

/** The lamports and token balances of a transaction's accounts: the `pre*` or `post*` half of its meta. */
export function readBalances(svm: LiteSVM, keys: readonly Address[]) {
  const balances: bigint[] = []
  const tokenBalances: TokenBalance[] = []
  for (const [accountIndex, key] of keys.entries()) {
    const account = svm.getAccount(key)
    balances.push(account.exists ? account.lamports : 0n)
    const token = account.exists ? readTokenAccount(svm, account) : undefined
    if (!token) continue
    tokenBalances.push({
      accountIndex,
      mint: token.mint,
      owner: token.owner,
      programId: token.programId,
      uiTokenAmount: uiTokenAmount(token.amount, token.decimals),
    })
  }
  return { balances, tokenBalances }
}
