import type { UserOperation } from 'viem/account-abstraction'

/**
 * The most an op's gas can cost (wei): the EntryPoint's required prefund — every gas limit it carries
 * times its `maxFeePerGas`. What a sponsorship cap must leave room for.
 * @example if (spent + maxGasCostOf(op) > cap) payItself()
 */
export function maxGasCostOf(
  op: Pick<
    UserOperation<'0.8'>,
    | 'callGasLimit'
    | 'verificationGasLimit'
    | 'preVerificationGas'
    | 'paymasterVerificationGasLimit'
    | 'paymasterPostOpGasLimit'
    | 'maxFeePerGas'
  >,
): bigint {
  const gas =
    op.callGasLimit +
    op.verificationGasLimit +
    op.preVerificationGas +
    (op.paymasterVerificationGasLimit ?? 0n) +
    (op.paymasterPostOpGasLimit ?? 0n)
  return gas * op.maxFeePerGas
}
