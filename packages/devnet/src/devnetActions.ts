import type { TokenInfo } from '@agentwallet/core'
import { type Address, encodeFunctionData, type Hex, numberToHex } from 'viem'
import { testTokenAbi } from './abis/testTokenAbi.js'
import { createDeployer } from './createDeployer.js'
import type { DevnetAddressBook } from './deployProtocols.js'
import { deployVerifyingPaymaster } from './deployVerifyingPaymaster.js'
import { devnetDeployer } from './devnetAccounts.js'
import type { DevnetProvider } from './types.js'

/** What a test does to a dev chain beyond plain JSON-RPC: fund, mint, move time, mine. */
export type DevnetActions = {
  /** Adds `amount` wei to `address`'s ETH balance. */
  faucet(address: Address, amount: bigint): Promise<void>
  /** Mints a test token (address or symbol, e.g. 'USDC') to `to`; returns the mint transaction hash. */
  mintToken(token: Address | string, to: Address, amount: bigint): Promise<Hex>
  /**
   * Deploys a tenant's VerifyingPaymaster on the devnet's EntryPoint v0.8: it pays the gas of user
   * operations `signer` (the service's sponsor key) has signed, from `deposit` wei put in its EntryPoint
   * deposit. The devnet's deployer owns it. Resolves with its address.
   */
  deployVerifyingPaymaster(options: { signer: Address; deposit?: bigint | undefined }): Promise<Address>
  /** Moves the chain clock forward; the next block carries the new time (nothing is mined). */
  increaseTime(seconds: number): Promise<void>
  /** Mines `blocks` empty blocks (default 1), all at the chain's time now: a burst does not move the clock. */
  mine(blocks?: number): Promise<void>
}

/**
 * The {@link DevnetActions} over any node that answers the development methods our devnet, anvil
 * and hardhat share (`hardhat_setBalance`, `hardhat_mine`, `evm_increaseTime`) and holds the protocol
 * set `addressBook` names, deployed by the devnet's deployer (whose key is public).
 * @example const { faucet } = devnetActions(provider, 31337, addressBook); await faucet(wallet, parseEther('1'))
 */
export function devnetActions(
  provider: DevnetProvider,
  chainId: number,
  addressBook: DevnetAddressBook,
): DevnetActions {
  const deployer = () => createDeployer(provider, chainId, devnetDeployer.privateKey)
  return {
    async faucet(address, amount) {
      const balance = BigInt(
        await provider.request({ method: 'eth_getBalance', params: [address, 'latest'] }),
      )
      await provider.request({
        method: 'hardhat_setBalance',
        params: [address, numberToHex(balance + amount)],
      })
    },
    async mintToken(token, to, amount) {
      const info = addressBook.tokens.find(
        (t: TokenInfo) => t.symbol === token || t.address.toLowerCase() === token.toLowerCase(),
      )
      if (!info) throw new Error(`${token} is not a devnet test token`)
      const data = encodeFunctionData({ abi: testTokenAbi, functionName: 'mint', args: [to, amount] })
      return (await deployer()).send({ to: info.address, data })
    },
    async deployVerifyingPaymaster({ signer, deposit }) {
      const entryPoint = addressBook.accountAbstraction.entryPoint
      return deployVerifyingPaymaster(await deployer(), { entryPoint, signer, deposit })
    },
    async increaseTime(seconds) {
      await provider.request({ method: 'evm_increaseTime', params: [seconds] })
    },
    async mine(blocks = 1) {
      // Back to back, each at the chain's time now (the wall clock plus any increaseTime), not a second apart.
      await provider.request({ method: 'hardhat_mine', params: [numberToHex(blocks), '0x0'] })
    },
  }
}
