import { type Address, encodeFunctionData } from 'viem'
import { entryPoint08Abi } from 'viem/account-abstraction'
import type { SmartAccountCall } from './smartAccountCall.js'

/**
 * The wallet's call that funds `account`'s EntryPoint deposit with `amount` wei: how a session account's
 * gas is paid when no paymaster sponsors it. The owner makes it, at issue and at each top-up (run it
 * through `walletCalldata`, or send it from an EIP-7702 wallet's own key); keep the deposit small, since
 * the session key controls its account and so its deposit.
 */
export function gasDepositCall(entryPoint: Address, account: Address, amount: bigint): SmartAccountCall {
  return {
    to: entryPoint,
    value: amount,
    data: encodeFunctionData({ abi: entryPoint08Abi, functionName: 'depositTo', args: [account] }),
  }
}
