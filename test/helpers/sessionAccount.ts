import type { AccountAbstractionContracts } from '@agentwallet/core'
import type { Devnet } from '@agentwallet/devnet'
import {
  type Address,
  createWalletClient,
  custom,
  encodeFunctionData,
  type Hex,
  type LocalAccount,
  type PublicClient,
  parseAbi,
  parseEther,
} from 'viem'
import { entryPoint08Abi, toPackedUserOperation, type UserOperation } from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'

/** The DeleGator functions a test account uses: one call, and the hash its userop signature covers. */
export const deleGatorAbi = parseAbi([
  'function execute((address target, uint256 value, bytes callData) execution)',
  'function getPackedUserOperationTypedDataHash((address sender, uint256 nonce, bytes initCode, bytes callData, bytes32 accountGasLimits, uint256 preVerificationGas, bytes32 gasFees, bytes paymasterAndData, bytes signature) userOp) view returns (bytes32)',
])

/**
 * A fresh EOA delegated by EIP-7702 (its own type-4 tx) to the devnet's EIP7702StatelessDeleGator,
 * holding `eth` to prefund its ops: a minimal ERC-4337 account, built in the test without the server.
 */
export async function delegatedAccount(
  devnet: Devnet,
  client: PublicClient,
  aa: AccountAbstractionContracts,
  eth = '10',
): Promise<LocalAccount> {
  const account = privateKeyToAccount(generatePrivateKey())
  await devnet.faucet(account.address, parseEther(eth))
  const wallet = createWalletClient({ account, chain: devnet.chain, transport: custom(devnet.provider) })
  const authorization = await wallet.signAuthorization({
    contractAddress: aa.eip7702DeleGator,
    executor: 'self',
  })
  const hash = await wallet.sendTransaction({ authorizationList: [authorization], to: account.address })
  await client.waitForTransactionReceipt({ hash })
  return account
}

/** An unsigned op of `account` making one call, its gas limits generous and its fees the node's. */
export async function callOperation(
  client: PublicClient,
  aa: AccountAbstractionContracts,
  account: Address,
  call: { to: Address; value: bigint; data?: Hex },
): Promise<UserOperation<'0.8'>> {
  const [nonce, fees] = await Promise.all([
    client.readContract({
      address: aa.entryPoint,
      abi: entryPoint08Abi,
      functionName: 'getNonce',
      args: [account, 0n],
    }),
    client.estimateFeesPerGas(),
  ])
  return {
    sender: account,
    nonce,
    callData: encodeFunctionData({
      abi: deleGatorAbi,
      functionName: 'execute',
      args: [{ target: call.to, value: call.value, callData: call.data ?? '0x' }],
    }),
    callGasLimit: 200_000n,
    verificationGasLimit: 300_000n,
    preVerificationGas: 60_000n,
    maxFeePerGas: fees.maxFeePerGas,
    maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
    signature: '0x',
  }
}

/** The op signed by the account's key over the DeleGator's EIP-712 hash of it (as it validates). */
export async function signedOperation(
  client: PublicClient,
  account: LocalAccount,
  op: UserOperation<'0.8'>,
): Promise<UserOperation<'0.8'>> {
  const hash = await client.readContract({
    address: account.address,
    abi: deleGatorAbi,
    functionName: 'getPackedUserOperationTypedDataHash',
    args: [toPackedUserOperation({ ...op, signature: '0x' })],
  })
  if (!account.sign) throw new Error('The account cannot sign a hash')
  return { ...op, signature: await account.sign({ hash }) }
}
