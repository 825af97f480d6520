import {
  createWalletClient,
  custom,
  encodeFunctionData,
  erc20Abi,
  formatUnits,
  isAddressEqual,
  parseAbi,
  parseEther,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import type { z } from 'zod'
import type { ChainHandle } from '../chain/types.js'
import { BaseError } from '../errors/baseError.js'
import { ValidationError } from '../errors/errors.js'
import { parseAmount } from '../utils/amounts.js'
import { type FaucetReturnType, type faucetSchema, faucetTokenCap } from './devnetSchemas.js'

const mintAbi = parseAbi(['function mint(address to, uint256 amount)'])

/**
 * Mints a test token of the chain's address book (its `mint(to, amount)`, open to anyone) to an
 * address: sent from a throwaway key the node's set-balance method funds first, so it needs no key of
 * the operator's. Unknown token or more than the cap: `validation_failed`; a mint that reverts:
 * `transaction_failed`.
 * @example await mintFromFaucet(chain, { address, token: 'USDC', amount: '100' }, setBalance)
 */
export async function mintFromFaucet(
  chain: ChainHandle,
  input: z.output<typeof faucetSchema> & { token: string },
  setBalance: (address: `0x${string}`, balance: bigint) => Promise<void>,
): Promise<FaucetReturnType> {
  const token = chain.contracts.tokens?.find(
    (candidate) =>
      candidate.symbol.toLowerCase() === input.token.toLowerCase() ||
      (/^0x[0-9a-fA-F]{40}$/.test(input.token) &&
        isAddressEqual(candidate.address, input.token as `0x${string}`)),
  )
  if (!token)
    throw new ValidationError(`${input.token} is not a test token of ${chain.name}'s address book`, {
      details: { reason: 'not_a_test_token', token: input.token, chain: chain.name },
    })
  const amount = parseAmount(input.amount ?? '10', token.decimals)
  if (amount === 0n || amount > parseAmount(faucetTokenCap, token.decimals))
    throw new ValidationError(
      `The faucet mints more than 0 and at most ${faucetTokenCap} ${token.symbol} per call`,
      {
        details: { reason: 'faucet_cap', cap: faucetTokenCap, amount: input.amount },
      },
    )
  const minter = privateKeyToAccount(generatePrivateKey())
  await setBalance(minter.address, parseEther('1'))
  const wallet = createWalletClient({ account: minter, transport: custom(chain.client) })
  const data = encodeFunctionData({ abi: mintAbi, functionName: 'mint', args: [input.address, amount] })
  const hash = await wallet.sendTransaction({ to: token.address, data, chain: null })
  const receipt = await chain.client.waitForTransactionReceipt({ hash })
  if (receipt.status !== 'success')
    throw new BaseError('transaction_failed', `${token.symbol}'s mint reverted`, {
      details: { hash, chain: chain.name },
    })
  const balance = await chain.client.readContract({
    address: token.address,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [input.address],
  })
  return {
    address: input.address,
    chain: chain.name,
    token: token.symbol,
    amount: formatUnits(amount, token.decimals),
    balance: formatUnits(balance, token.decimals),
  }
}
