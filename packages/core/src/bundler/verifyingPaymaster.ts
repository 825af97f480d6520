import {
  type Address,
  concat,
  encodeAbiParameters,
  type Hex,
  keccak256,
  type LocalAccount,
  numberToHex,
  pad,
} from 'viem'
import {
  type GetPaymasterDataParameters,
  type GetPaymasterStubDataParameters,
  toPackedUserOperation,
  type UserOperation,
} from 'viem/account-abstraction'

/** Gas the paymaster's validation needs (parse, hash, ecrecover) with room; it has no postOp. */
const defaultVerificationGas = 100_000n

/** A 65-byte signature of the right shape, for gas estimation before the op is final. */
const stubSignature: Hex = `0x${'ff'.repeat(32)}${'7a'.repeat(32)}1c`

export type VerifyingPaymasterOptions = {
  /** The VerifyingPaymaster contract (packages/devnet/contracts/VerifyingPaymaster.sol). */
  address: Address
  /** Its `verifyingSigner`: a vault key of the service (the tenant's sponsor key). */
  signer: Pick<LocalAccount, 'signMessage'>
  /** How long a signed sponsorship stays usable (default 600 s). */
  validForSeconds?: number | undefined
  /** The clock (default Date.now); the window is checked against block time. */
  now?: (() => number) | undefined
  paymasterVerificationGasLimit?: bigint | undefined
}

/**
 * The tenant's verifying paymaster as viem's paymaster hooks: pass it as `paymaster` to
 * `createBundlerClient` / `prepareUserOperation` and the op carries signed paymasterAndData, so its gas
 * is drawn from the paymaster's EntryPoint deposit instead of the account.
 * @example const op = await bundlerClient.prepareUserOperation({ calls, paymaster: verifyingPaymaster({ address, signer }) })
 */
export function verifyingPaymaster(options: VerifyingPaymasterOptions) {
  const gas = {
    paymasterVerificationGasLimit: options.paymasterVerificationGasLimit ?? defaultVerificationGas,
    paymasterPostOpGasLimit: 0n,
  }
  const window = () => {
    const now = Math.floor((options.now ?? Date.now)() / 1000)
    return { validUntil: now + (options.validForSeconds ?? 600), validAfter: 0 }
  }
  return {
    async getPaymasterStubData(_request: GetPaymasterStubDataParameters) {
      const { validUntil, validAfter } = window()
      return {
        paymaster: options.address,
        paymasterData: paymasterData(validUntil, validAfter, stubSignature),
        ...gas,
      }
    },
    async getPaymasterData(request: GetPaymasterDataParameters) {
      const { validUntil, validAfter } = window()
      // viem asks for the final data after estimating, so the op's gas fields are all set by now.
      const userOperation = request as unknown as UserOperation<'0.8'>
      const hash = verifyingPaymasterHash({
        userOperation: { ...userOperation, paymaster: options.address, ...gas },
        chainId: request.chainId,
        validUntil,
        validAfter,
      })
      const signature = await options.signer.signMessage({ message: { raw: hash } })
      return {
        paymaster: options.address,
        paymasterData: paymasterData(validUntil, validAfter, signature),
        ...gas,
      }
    },
  }
}

/**
 * What the paymaster's signer signs (EIP-191 prefixed): the contract's `getHash` — every field of the
 * packed op but the signatures, the paymaster's gas limits, chain, paymaster and validity window.
 */
export function verifyingPaymasterHash({
  userOperation,
  chainId,
  validUntil,
  validAfter,
}: {
  userOperation: UserOperation<'0.8'> & { paymaster: Address }
  chainId: number
  validUntil: number
  validAfter: number
}): Hex {
  const packed = toPackedUserOperation(userOperation)
  const paymasterGas = concat([
    pad(numberToHex(userOperation.paymasterVerificationGasLimit ?? 0n), { size: 16 }),
    pad(numberToHex(userOperation.paymasterPostOpGasLimit ?? 0n), { size: 16 }),
  ])
  return keccak256(
    encodeAbiParameters(
      [
        { type: 'address' },
        { type: 'uint256' },
        { type: 'bytes32' },
        { type: 'bytes32' },
        { type: 'bytes32' },
        { type: 'uint256' },
        { type: 'uint256' },
        { type: 'bytes32' },
        { type: 'uint256' },
        { type: 'address' },
        { type: 'uint48' },
        { type: 'uint48' },
      ],
      [
        packed.sender,
        packed.nonce,
        keccak256(packed.initCode),
        keccak256(packed.callData),
        packed.accountGasLimits,
        BigInt(paymasterGas),
        packed.preVerificationGas,
        packed.gasFees,
        BigInt(chainId),
        userOperation.paymaster,
        validUntil,
        validAfter,
      ],
    ),
  )
}

function paymasterData(validUntil: number, validAfter: number, signature: Hex): Hex {
  return concat([
    encodeAbiParameters([{ type: 'uint48' }, { type: 'uint48' }], [validUntil, validAfter]),
    signature,
  ])
}
