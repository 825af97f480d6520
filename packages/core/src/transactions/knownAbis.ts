import { type Abi, type Address, erc20Abi, parseAbi } from 'viem'
import { ensControllerAbi, ensRegistryAbi, ensReverseRegistrarAbi } from '../chain/ensAbis.js'
import { identityRegistryAbi } from '../chain/identityRegistryAbi.js'
import { lidoAbi } from '../chain/lidoAbi.js'
import { safeAbi, safeProxyFactoryAbi } from '../chain/safeAbi.js'
import type { AddressBook } from '../chain/types.js'
import { uniswapV2RouterAbi } from '../chain/uniswapV2Abi.js'
import { swapRouter02Abi } from '../chain/uniswapV3Abi.js'

/*
 * What a transaction page can decode: the calls core sends and the events of the protocols in the
 * address book (their real signatures, `indexed` included, as the devnet's bytecode emits them).
 */
const erc721Events = parseAbi([
  'event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)',
  'event Approval(address indexed owner, address indexed approved, uint256 indexed tokenId)',
])
const wethAbi = parseAbi([
  'function deposit() payable',
  'function withdraw(uint256 wad)',
  'event Deposit(address indexed dst, uint256 wad)',
  'event Withdrawal(address indexed src, uint256 wad)',
])
const uniswapEvents = parseAbi([
  'event Swap(address indexed sender, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out, address indexed to)',
  'event Sync(uint112 reserve0, uint112 reserve1)',
  'event Mint(address indexed sender, uint256 amount0, uint256 amount1)',
  'event Burn(address indexed sender, uint256 amount0, uint256 amount1, address indexed to)',
  'event Swap(address indexed sender, address indexed recipient, int256 amount0, int256 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick)',
])
const safeEvents = parseAbi([
  'event SafeSetup(address indexed initiator, address[] owners, uint256 threshold, address initializer, address fallbackHandler)',
  'event SafeReceived(address indexed sender, uint256 value)',
  'function multiSend(bytes transactions) payable',
])
const ensEvents = parseAbi([
  'event NewOwner(bytes32 indexed node, bytes32 indexed label, address owner)',
  'event NewResolver(bytes32 indexed node, address resolver)',
  'event Transfer(bytes32 indexed node, address owner)',
  'event NameRegistered(uint256 indexed id, address indexed owner, uint256 expires)',
  'event AddrChanged(bytes32 indexed node, address a)',
  'event AddressChanged(bytes32 indexed node, uint256 coinType, bytes newAddress)',
  'event NameChanged(bytes32 indexed node, string name)',
])
const erc8004Events = parseAbi([
  'event Registered(uint256 indexed agentId, string agentURI, address indexed owner)',
  'event MetadataSet(uint256 indexed agentId, string indexed indexedMetadataKey, string metadataKey, bytes metadataValue)',
  'event URIUpdated(uint256 indexed agentId, string newURI, address indexed updatedBy)',
])
const lidoEvents = parseAbi(['event Submitted(address indexed sender, uint256 amount, address referral)'])

const ens: Abi[] = [ensControllerAbi, ensRegistryAbi, ensReverseRegistrarAbi, ensEvents, erc721Events]
const erc8004: Abi[] = [identityRegistryAbi, erc8004Events, erc721Events]

/**
 * Every ABI tried on a contract the address book does not name. ERC-721 events come before ERC-20's:
 * an ERC-20 log lacks the fourth topic ERC-721's `Transfer` needs, so strict decoding tells them apart.
 */
export const knownAbis: readonly Abi[] = [
  erc721Events,
  erc20Abi,
  wethAbi,
  uniswapV2RouterAbi,
  swapRouter02Abi,
  uniswapEvents,
  safeAbi,
  safeProxyFactoryAbi,
  safeEvents,
  ...ens,
  ...erc8004,
  lidoAbi,
  lidoEvents,
]

/** A contract of the address book: what to call it, the ABIs to try first, and its token, if one. */
export type KnownContract = {
  label: string
  abis: readonly Abi[]
  token?: { symbol: string; decimals: number } | undefined
}

/**
 * The address book's contracts by lowercase address.
 * @example knownContracts(chain.contracts).get(to.toLowerCase())?.label // 'uniswap-v2 router'
 */
export function knownContracts(book: AddressBook): Map<string, KnownContract> {
  const known = new Map<string, KnownContract>()
  const add = (address: Address | undefined, contract: KnownContract) => {
    if (address) known.set(address.toLowerCase(), contract)
  }
  for (const token of book.tokens ?? [])
    add(token.address, {
      label: `${token.symbol} (ERC-20)`,
      abis: [erc20Abi],
      token: { symbol: token.symbol, decimals: token.decimals },
    })
  add(book.weth, { label: 'WETH', abis: [wethAbi, erc20Abi], token: { symbol: 'WETH', decimals: 18 } })
  for (const venue of book.uniswapV2 ?? []) {
    add(venue.router, { label: `${venue.name} router`, abis: [uniswapV2RouterAbi] })
    add(venue.factory, { label: `${venue.name} factory`, abis: [] })
  }
  for (const venue of book.uniswapV3 ?? []) {
    add(venue.router, { label: `${venue.name} router`, abis: [swapRouter02Abi] })
    add(venue.quoter, { label: `${venue.name} quoter`, abis: [] })
  }
  if (book.safe) {
    add(book.safe.proxyFactory, { label: 'Safe proxy factory', abis: [safeProxyFactoryAbi] })
    add(book.safe.singleton, { label: 'Safe singleton', abis: [safeAbi] })
    add(book.safe.singletonL2, { label: 'Safe singleton (L2)', abis: [safeAbi] })
    add(book.safe.multiSend, { label: 'Safe MultiSend', abis: [safeEvents] })
    add(book.safe.multiSendCallOnly, { label: 'Safe MultiSendCallOnly', abis: [safeEvents] })
  }
  if (book.ens) {
    add(book.ens.registry, { label: 'ENS registry', abis: ens })
    add(book.ens.baseRegistrar, { label: 'ENS .eth registrar', abis: [erc721Events, ensEvents] })
    add(book.ens.controller, { label: 'ENS controller', abis: ens })
    add(book.ens.publicResolver, { label: 'ENS public resolver', abis: ens })
    add(book.ens.reverseRegistrar, { label: 'ENS reverse registrar', abis: ens })
  }
  add(book.erc8004?.identityRegistry, { label: 'ERC-8004 identity registry', abis: erc8004 })
  add(book.staking?.lido, {
    label: 'Lido (stETH)',
    abis: [lidoAbi, lidoEvents, erc20Abi],
    token: { symbol: 'stETH', decimals: 18 },
  })
  return known
}
