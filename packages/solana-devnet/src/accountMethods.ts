import type { Address } from '@solana/kit'
import { type AccountConfig, encodeAccount } from './encodeAccount.js'
import { uiTokenAmount } from './formatUiAmount.js'
import { readMint, readTokenAccount } from './readTokenAccount.js'
import { atSlot, type RpcContext, type RpcMethod } from './rpcContext.js'
import { addressParam, configParam, integerParam } from './rpcParams.js'
import { invalidParam } from './solanaRpcError.js'

function accountAt({ chain }: RpcContext, address: Address, config: AccountConfig) {
  const account = chain.svm.getAccount(address)
  return account.exists ? encodeAccount(chain.svm, account, config) : null
}

/** The token accounts an owner holds under one program (every account of it is scanned: a devnet is small). */
function tokenAccountsOf(
  { chain }: RpcContext,
  owner: Address,
  filter: { mint?: string; programId?: string },
) {
  const mint = filter.mint ? chain.svm.getAccount(filter.mint as Address) : undefined
  const program = filter.programId ?? (mint?.exists ? mint.programAddress : undefined)
  if (!program) throw invalidParam('Token mint could not be unpacked')
  return chain.svm.getProgramAccounts(program as Address).filter((account) => {
    const token = readTokenAccount(chain.svm, account)
    return token !== undefined && token.owner === owner && (!filter.mint || token.mint === filter.mint)
  })
}

export const accountMethods: Record<string, RpcMethod> = {
  getBalance: (context, params) => {
    const balance = context.chain.svm.getBalance(addressParam(params, 0)) ?? 0n
    return atSlot(context.chain, balance)
  },
  getAccountInfo: (context, params) =>
    atSlot(context.chain, accountAt(context, addressParam(params, 0), configParam(params, 1))),
  getMultipleAccounts: (context, params) => {
    const addresses = params[0]
    if (!Array.isArray(addresses) || addresses.length > 100)
      throw invalidParam('expected up to 100 addresses')
    const config = configParam<AccountConfig>(params, 1)
    return atSlot(
      context.chain,
      addresses.map((_, index) => accountAt(context, addressParam(addresses, index), config)),
    )
  },
  getTokenAccountsByOwner: (context, params) => {
    const owner = addressParam(params, 0)
    const filter = configParam<{ mint: string; programId: string }>(params, 1)
    const config = configParam<AccountConfig>(params, 2)
    const accounts = tokenAccountsOf(context, owner, filter).map((account) => ({
      pubkey: account.address,
      account: encodeAccount(context.chain.svm, account, config),
    }))
    return atSlot(context.chain, accounts)
  },
  getTokenAccountBalance: (context, params) => {
    const account = context.chain.svm.getAccount(addressParam(params, 0))
    const token = account.exists ? readTokenAccount(context.chain.svm, account) : undefined
    if (!token) throw invalidParam('not a Token account')
    return atSlot(context.chain, uiTokenAmount(token.amount, token.decimals))
  },
  getTokenSupply: (context, params) => {
    const mint = readMint(context.chain.svm, addressParam(params, 0))
    if (!mint) throw invalidParam('not a Token mint')
    return atSlot(context.chain, uiTokenAmount(mint.supply, mint.decimals))
  },
  getMinimumBalanceForRentExemption: ({ chain }, params) =>
    chain.svm.minimumBalanceForRentExemption(integerParam(params, 0)),
}
