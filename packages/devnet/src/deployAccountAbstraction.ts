import type { AccountAbstractionContracts } from '@agentwallet/core'
import { type Address, concat, getContractAddress, type Hex, keccak256, parseEther, toHex } from 'viem'
import type { Deployer } from './createDeployer.js'
import { type Artifact, loadArtifact } from './loadArtifact.js'
import type { DevnetProvider } from './types.js'

/**
 * Arachnid's deterministic deployment proxy (CREATE2 with the salt as the first 32 bytes of calldata),
 * through which the ERC-4337 EntryPoints are deployed on every public chain. Its deployment is a
 * presigned transaction without a chain id (pre-EIP-155, gas price 100 gwei × 100,000 gas), so one and
 * the same transaction puts it at the same address on any chain that accepts unprotected transactions.
 */
export const deterministicDeployer = {
  address: '0x4e59b44847b379578588920cA78FbF26c0B4956C',
  signer: '0x3fab184622dc19b6109349b94811493bf2a45362',
  cost: parseEther('0.01'),
  transaction:
    '0xf8a58085174876e800830186a08080b853604580600e600039806000f350fe7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe03601600081602082378035828234f58015156039578182fd5b8082525050506014600cf31ba02222222222222222222222222222222222222222222222222222222222222222a02222222222222222222222222222222222222222222222222222222222222222',
} as const

/** The salt eth-infinitism used for EntryPoint v0.8: with the npm bytecode it gives the canonical address. */
const entryPointSalt: Hex = '0x0a59dbff790c23c976a548690c27297883cc66b4c67024f9117b0238995e35e9'

const enforcerContracts = {
  timestamp: 'TimestampEnforcer',
  allowedTargets: 'AllowedTargetsEnforcer',
  allowedMethods: 'AllowedMethodsEnforcer',
  valueLte: 'ValueLteEnforcer',
  nativeTokenPeriodTransfer: 'NativeTokenPeriodTransferEnforcer',
  erc20PeriodTransfer: 'ERC20PeriodTransferEnforcer',
  erc20TransferAmount: 'ERC20TransferAmountEnforcer',
  erc20BalanceChange: 'ERC20BalanceChangeEnforcer',
  limitedCalls: 'LimitedCallsEnforcer',
  redeemer: 'RedeemerEnforcer',
} as const satisfies Record<keyof AccountAbstractionContracts['enforcers'], string>

/**
 * Deploys ERC-4337 EntryPoint v0.8 at its canonical address (through the deterministic deployment
 * proxy, deployed first from its presigned transaction) and, from the deployer, MetaMask's Delegation
 * Framework bound to it: DelegationManager, the HybridDeleGator implementation and SimpleFactory, the
 * EIP7702StatelessDeleGator and the caveat enforcers.
 */
export async function deployAccountAbstraction(
  provider: DevnetProvider,
  deployer: Deployer,
): Promise<AccountAbstractionContracts> {
  const entryPoint = await deployEntryPoint(provider, deployer)
  const artifact = (contract: string) => loadArtifact('delegation-framework', contract)
  const delegationManager = await deployer.deploy(artifact('DelegationManager'), [deployer.address])
  const p256Library = await deployer.deploy(artifact('SCL_RIP7212'))
  const hybridDeleGatorImpl = await deployer.deploy(linked(artifact('HybridDeleGator'), p256Library), [
    delegationManager,
    entryPoint,
  ])
  const simpleFactory = await deployer.deploy(artifact('SimpleFactory'))
  const eip7702DeleGator = await deployer.deploy(artifact('EIP7702StatelessDeleGator'), [
    delegationManager,
    entryPoint,
  ])
  const enforcers: Partial<AccountAbstractionContracts['enforcers']> = {}
  for (const [key, contract] of Object.entries(enforcerContracts) as [
    keyof typeof enforcerContracts,
    string,
  ][]) {
    enforcers[key] = await deployer.deploy(artifact(contract))
  }
  return {
    entryPoint,
    delegationManager,
    hybridDeleGatorImpl,
    simpleFactory,
    eip7702DeleGator,
    enforcers: enforcers as AccountAbstractionContracts['enforcers'],
  }
}

/**
 * HybridDeleGator links the library `lib/SCL/src/lib/libSCL_RIP7212.sol:SCL_RIP7212` (P256 signers):
 * solc leaves `__$` + the first 34 hex digits of keccak256(that name) + `$__` where its address goes.
 */
function linked(artifact: Artifact, library: Address): Artifact {
  const placeholder = `__$${keccak256(toHex(p256LibraryName)).slice(2, 36)}$__`
  const bytecode = artifact.bytecode.replaceAll(placeholder, library.slice(2).toLowerCase()) as Hex
  if (bytecode === artifact.bytecode) throw new Error('HybridDeleGator bytecode has no link placeholder')
  return { ...artifact, bytecode }
}

const p256LibraryName = 'lib/SCL/src/lib/libSCL_RIP7212.sol:SCL_RIP7212'

async function deployEntryPoint(provider: DevnetProvider, deployer: Deployer): Promise<Address> {
  if ((await codeAt(provider, deterministicDeployer.address)) === '0x') {
    await deployer.send({ to: deterministicDeployer.signer, value: deterministicDeployer.cost })
    await deployer.sendRaw(deterministicDeployer.transaction)
  }
  const { bytecode } = loadArtifact('account-abstraction', 'EntryPoint')
  const entryPoint = getContractAddress({
    opcode: 'CREATE2',
    from: deterministicDeployer.address,
    salt: entryPointSalt,
    bytecode,
  })
  if ((await codeAt(provider, entryPoint)) !== '0x') return entryPoint
  await deployer.send({ to: deterministicDeployer.address, data: concat([entryPointSalt, bytecode]) })
  if ((await codeAt(provider, entryPoint)) === '0x')
    throw new Error(`EntryPoint was not deployed at ${entryPoint}`)
  return entryPoint
}

function codeAt(provider: DevnetProvider, address: Address): Promise<Hex> {
  return provider.request({ method: 'eth_getCode', params: [address, 'latest'] })
}
