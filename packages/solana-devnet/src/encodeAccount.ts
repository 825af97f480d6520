import { type EncodedAccount, getBase58Decoder, getBase64Decoder } from '@solana/kit'
import type { LiteSVM } from 'litesvm'
import { uiTokenAmount } from './formatUiAmount.js'
import { readMint, readTokenAccount } from './readTokenAccount.js'
import { invalidParam } from './solanaRpcError.js'
import { TOKEN_2022_PROGRAM_ADDRESS } from './tokenPrograms.js'

export type AccountEncoding = 'base58' | 'base64' | 'base64+zstd' | 'jsonParsed' | 'binary'
export type AccountConfig = {
  encoding?: AccountEncoding | undefined
  dataSlice?: { offset: number; length: number } | undefined
}

/** Rent-exempt accounts carry `u64::MAX` as their rent epoch on today's clusters. */
const rentExemptEpoch = 18446744073709551615n

/**
 * An account as the RPC answers it (`getAccountInfo`, `getMultipleAccounts`, notifications). With
 * `jsonParsed`, mints and token accounts come parsed as Agave parses them; other accounts fall back to
 * base64, as on a real node. Default encoding: `binary` (a bare base58 string), as Agave's.
 */
export function encodeAccount(svm: LiteSVM, account: EncodedAccount, config: AccountConfig = {}) {
  const encoding = config.encoding ?? 'binary'
  const data = config.dataSlice
    ? account.data.slice(config.dataSlice.offset, config.dataSlice.offset + config.dataSlice.length)
    : account.data
  const parsed = encoding === 'jsonParsed' ? parseTokenData(svm, account) : undefined
  return {
    data: parsed ?? encodeData(data, encoding),
    executable: account.executable,
    lamports: account.lamports,
    owner: account.programAddress,
    rentEpoch: rentExemptEpoch,
    space: BigInt(account.data.length),
  }
}

function encodeData(data: EncodedAccount['data'], encoding: AccountEncoding) {
  if (encoding === 'binary') return getBase58Decoder().decode(data)
  if (encoding === 'base58') return [getBase58Decoder().decode(data), 'base58']
  if (encoding === 'base64' || encoding === 'jsonParsed') return [getBase64Decoder().decode(data), 'base64']
  throw invalidParam(`unsupported encoding: ${encoding}`)
}

function parseTokenData(svm: LiteSVM, account: EncodedAccount) {
  const program = account.programAddress === TOKEN_2022_PROGRAM_ADDRESS ? 'spl-token-2022' : 'spl-token'
  const space = BigInt(account.data.length)
  const token = readTokenAccount(svm, account)
  if (token) {
    const info = {
      isNative: token.isNative,
      mint: token.mint,
      owner: token.owner,
      state: token.state,
      tokenAmount: uiTokenAmount(token.amount, token.decimals),
      ...(token.delegate ? { delegate: token.delegate } : {}),
    }
    return { program, parsed: { info, type: 'account' }, space }
  }
  const mint = readMint(svm, account.address)
  if (!mint) return undefined
  const info = {
    decimals: mint.decimals,
    freezeAuthority: mint.freezeAuthority.__option === 'Some' ? mint.freezeAuthority.value : null,
    isInitialized: mint.isInitialized,
    mintAuthority: mint.mintAuthority.__option === 'Some' ? mint.mintAuthority.value : null,
    supply: mint.supply.toString(),
  }
  return { program, parsed: { info, type: 'mint' }, space }
}
