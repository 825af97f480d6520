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
import { deleGatorAbi } from './deleGatorAbi.js'
import { simpleFactoryAbi } from './simpleFactoryAbi.js'

const erc1967ProxyAbi = parseAbi(['constructor(address implementation, bytes data)'])

/** Where a smart wallet will live and how to deploy it: `factory` + `factoryData` of its first user operation. */
export type SmartWalletDeployment = { address: Address; factory: Address; factoryData: Hex }

/**
 * The counterfactual address of the HybridDeleGator smart wallet owned by `owner` (an ERC1967Proxy to
 * the chain's implementation, initialised with `owner` and no passkeys, deployed by SimpleFactory with
 * CREATE2 and `salt`), and the factory call that deploys it: the `factory`/`factoryData` of the wallet's
 * first user operation, or the data of a plain transaction to `factory`. Async: the proxy's bytecode
 * (from `@metamask/delegation-abis`, whose bytecode module is large) is loaded on first use.
 * @example const { address, factory, factoryData } = await smartWalletDeployment(contracts, { owner })
 */
export async function smartWalletDeployment(
  contracts: Pick<AccountAbstractionContracts, 'hybridDeleGatorImpl' | 'simpleFactory'>,
  { owner, salt = zeroHash }: { owner: Address; salt?: Hex | undefined },
): Promise<SmartWalletDeployment> {
  const { ERC1967Proxy } = await import('@metamask/delegation-abis/bytecode')
  const initialize = encodeFunctionData({
    abi: deleGatorAbi,
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
    factoryData: encodeFunctionData({
      abi: simpleFactoryAbi,
      functionName: 'deploy',
      args: [bytecode, salt],
    }),
  }
}
