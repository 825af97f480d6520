import { HybridDeleGator, SimpleFactory } from '@metamask/delegation-abis'
import { ERC1967Proxy } from '@metamask/delegation-abis/bytecode'
import {
  type Address,
  encodeDeployData,
  encodeFunctionData,
  getContractAddress,
  type Hex,
  parseAbi,
  zeroHash,
} from 'viem'
import type { AccountAbstractionContracts } from '../chain/types.js'

const erc1967ProxyAbi = parseAbi(['constructor(address implementation, bytes data)'])

/** Where a smart wallet will live and how to deploy it: `factory` + `factoryData` of its first user operation. */
export type SmartWalletDeployment = { address: Address; factory: Address; factoryData: Hex }

/**
 * The counterfactual address of the HybridDeleGator smart wallet owned by `owner` (an ERC1967Proxy to
 * the chain's implementation, initialised with `owner` and no passkeys, deployed by SimpleFactory with
 * CREATE2 and `salt`), and the factory call that deploys it: the `factory`/`factoryData` of the wallet's
 * first user operation, or the data of a plain transaction to `factory`.
 * @example const { address, factory, factoryData } = smartWalletDeployment(contracts, { owner })
 */
export function smartWalletDeployment(
  contracts: Pick<AccountAbstractionContracts, 'hybridDeleGatorImpl' | 'simpleFactory'>,
  { owner, salt = zeroHash }: { owner: Address; salt?: Hex | undefined },
): SmartWalletDeployment {
  const initialize = encodeFunctionData({
    abi: HybridDeleGator,
    functionName: 'initialize',
    args: [owner, [], [], []],
  })
  const bytecode = encodeDeployData({
    abi: erc1967ProxyAbi,
    bytecode: ERC1967Proxy as Hex,
    args: [contracts.hybridDeleGatorImpl, initialize],
  })
  return {
    address: getContractAddress({ opcode: 'CREATE2', from: contracts.simpleFactory, salt, bytecode }),
    factory: contracts.simpleFactory,
    factoryData: encodeFunctionData({ abi: SimpleFactory, functionName: 'deploy', args: [bytecode, salt] }),
  }
}
