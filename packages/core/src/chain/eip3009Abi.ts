import { parseAbi } from 'viem'

/**
 * The EIP-3009 functions and events of a USDC-like token (Circle's FiatToken v2.2) core reads and
 * calls: whether an authorization is used or cancelled, the logs that say which, and cancelling one.
 */
export const eip3009Abi = parseAbi([
  'function authorizationState(address authorizer, bytes32 nonce) view returns (bool)',
  'function cancelAuthorization(address authorizer, bytes32 nonce, bytes signature)',
  'event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)',
  'event AuthorizationCanceled(address indexed authorizer, bytes32 indexed nonce)',
  'event Transfer(address indexed from, address indexed to, uint256 value)',
])

/** The EIP-712 type of an authorization's cancellation (EIP-3009). */
export const cancelAuthorizationTypes = {
  CancelAuthorization: [
    { name: 'authorizer', type: 'address' },
    { name: 'nonce', type: 'bytes32' },
  ],
} as const
