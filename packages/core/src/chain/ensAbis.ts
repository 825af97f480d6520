import { parseAbi } from 'viem'

/** ENS registry: who owns a node and which resolver answers for it. */
export const ensRegistryAbi = parseAbi([
  'function owner(bytes32 node) view returns (address)',
  'function resolver(bytes32 node) view returns (address)',
])

/**
 * The `.eth` ETHRegistrarController of the 2020–23 mainnet stack (what the devnet deploys):
 * commit/reveal with `registerWithConfig`, and `rentPrice` as one uint256.
 */
export const ensControllerAbi = parseAbi([
  'function available(string name) view returns (bool)',
  'function valid(string name) pure returns (bool)',
  'function rentPrice(string name, uint256 duration) view returns (uint256)',
  'function minCommitmentAge() view returns (uint256)',
  'function maxCommitmentAge() view returns (uint256)',
  'function commitments(bytes32 commitment) view returns (uint256)',
  'function makeCommitmentWithConfig(string name, address owner, bytes32 secret, address resolver, address addr) pure returns (bytes32)',
  'function commit(bytes32 commitment)',
  'function registerWithConfig(string name, address owner, uint256 duration, bytes32 secret, address resolver, address addr) payable',
  'event NameRegistered(string name, bytes32 indexed label, address indexed owner, uint256 cost, uint256 expires)',
])

/** The current controllers (2023 on) answer `rentPrice` with a (base, premium) pair. */
export const ensPriceStructControllerAbi = parseAbi([
  'struct Price { uint256 base; uint256 premium; }',
  'function rentPrice(string name, uint256 duration) view returns (Price price)',
])

export const ensResolverAbi = parseAbi([
  'function addr(bytes32 node) view returns (address)',
  'function name(bytes32 node) view returns (string)',
])

export const ensReverseRegistrarAbi = parseAbi(['function setName(string name) returns (bytes32)'])
