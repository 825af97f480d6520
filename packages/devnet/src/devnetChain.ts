import { type Chain, defineChain } from 'viem'

/** The devnet as a viem chain: id 31337 like anvil and hardhat, native ETH. */
export const devnetChain: Chain = defineChain({
  id: 31337,
  name: 'devnet',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: ['http://127.0.0.1:8545'] } },
  testnet: true,
})
