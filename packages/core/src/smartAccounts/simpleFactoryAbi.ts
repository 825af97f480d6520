import { parseAbi } from 'viem'

/** The Delegation Framework's SimpleFactory: CREATE2 of any bytecode (a smart wallet's proxy). */
export const simpleFactoryAbi = parseAbi(['function deploy(bytes bytecode, bytes32 salt) returns (address)'])
