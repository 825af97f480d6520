import type { Devnet } from '@agentwallet/devnet'
import { numberToHex, parseGwei } from 'viem'

/** Mines the next block at `baseFee` wei, so txs whose max fee is below it stay in the mempool. */
export async function raiseBaseFee(devnet: Devnet, baseFee: bigint): Promise<void> {
  await devnet.provider.request({
    method: 'hardhat_setNextBlockBaseFeePerGas',
    params: [numberToHex(baseFee)],
  })
  await devnet.mine()
}

/**
 * Runs `body` with automine off (txs wait in the mempool until `devnet.mine()`), then turns it back
 * on and mines what waits at a base fee of 1 gwei. Our devnet and anvil both answer these methods.
 * @example await withoutAutomine(devnet, async () => { await aw.send(…); await raiseBaseFee(devnet, fee) })
 */
export async function withoutAutomine(devnet: Devnet, body: () => Promise<void>): Promise<void> {
  await devnet.provider.request({ method: 'evm_setAutomine', params: [false] })
  try {
    await body()
  } finally {
    await devnet.provider.request({ method: 'evm_setAutomine', params: [true] })
    await devnet.provider.request({
      method: 'hardhat_setNextBlockBaseFeePerGas',
      params: [numberToHex(parseGwei('1'))],
    })
    await devnet.mine()
  }
}
