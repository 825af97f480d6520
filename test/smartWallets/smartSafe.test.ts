import { type AgentWallet, type AuditLine, auditLines, relayerAccount } from '@agentwallet/core'
import { type Devnet, safeAbi } from '@agentwallet/devnet'
import {
  type Address,
  concat,
  encodeFunctionData,
  type Hex,
  type PublicClient,
  pad,
  parseAbi,
  parseEther,
  toHex,
  zeroAddress,
  zeroHash,
} from 'viem'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  freshAddress,
  fundedWallet,
  publicClientOf,
  useDevnetAgentWallet,
} from '../helpers/devnetAgentWallet.js'

// A smart wallet as a Safe owner (docs/smart-accounts.md, "Safe ownership"): it deploys Safes by its
// user operations and signs for them by approving the safeTxHash on chain (Safe 1.4.1 cannot check a
// HybridDeleGator's EIP-1271 signature: the last test shows why).

const erc1271Abi = parseAbi([
  'function isValidSignature(bytes32 hash, bytes signature) view returns (bytes4)',
])
const approvedHashesAbi = parseAbi([
  'function approvedHashes(address owner, bytes32 hash) view returns (uint256)',
  'function execTransaction(address to, uint256 value, bytes data, uint8 operation, uint256 safeTxGas, uint256 baseGas, uint256 gasPrice, address gasToken, address refundReceiver, bytes signatures) payable returns (bool success)',
])

let devnet: Devnet
let aw: AgentWallet
let client: PublicClient
let smart: Address
let eoa: Address
useDevnetAgentWallet((started) => ({ devnet, aw } = started))

beforeAll(async () => {
  client = publicClientOf(devnet)
  await devnet.faucet((await relayerAccount(aw.context, 'default')).address, parseEther('10'))
  const { wallet } = await aw.createWallet({ agentName: 'smart-safe-owner', kind: 'smart' })
  smart = wallet.address
  await devnet.faucet(smart, parseEther('5'))
  eoa = (await fundedWallet(aw, devnet, '10', 'eoa-safe-owner')).address
})

async function deployedSafe(owners: Address[], threshold: number, wallet: Address): Promise<Address> {
  const deployed = await aw.deploySafe({ owners, threshold, wallet })
  if (deployed.status !== 'deployed') throw new Error(`expected a deployed Safe, got ${deployed.status}`)
  await devnet.faucet(deployed.address, parseEther('2'))
  return deployed.address
}

const approved = (safe: Address, owner: Address, hash: string) =>
  client.readContract({
    address: safe,
    abi: approvedHashesAbi,
    functionName: 'approvedHashes',
    args: [owner, hash as Hex],
  })

describe('a smart wallet owns a Safe', () => {
  let safe: Address

  it('deploys a 2-of-2 Safe with an EOA co-owner by its user operation', async () => {
    const deployed = await aw.deploySafe({ owners: [eoa, smart], threshold: 2, wallet: smart })
    expect(deployed.status).toBe('deployed')
    if (deployed.status !== 'deployed') return
    safe = deployed.address
    expect(deployed.transaction).toMatchObject({ kind: 'multisig', status: 'confirmed', from: smart })
    // Mined by the relayer's handleOps that carried the wallet's op.
    expect((await client.getTransactionReceipt({ hash: deployed.hash })).status).toBe('success')
    const owners = await client.readContract({ address: safe, abi: safeAbi, functionName: 'getOwners' })
    expect([...owners].sort()).toEqual([eoa, smart].sort())
    expect(await client.readContract({ address: safe, abi: safeAbi, functionName: 'getThreshold' })).toBe(2n)
    await devnet.faucet(safe, parseEther('2'))
  })

  it('confirms an EOA owner’s proposal by approving its hash on chain, and executes it', async () => {
    const recipient = freshAddress()
    const proposed = await aw.proposeSafeTransaction({ safe, wallet: eoa, to: recipient, value: '0.3' })
    expect(proposed).toMatchObject({ status: 'pending', confirmations: 1, threshold: 2 })
    const hash = proposed.proposal.safeTxHash

    const confirmed = await aw.confirmSafeTransaction({ safe, safeTxHash: hash, wallet: smart })

    expect(confirmed).toMatchObject({ status: 'executed', confirmations: 2, threshold: 2 })
    expect(confirmed.transaction).toMatchObject({ kind: 'multisig', status: 'confirmed', from: smart })
    expect(await client.getBalance({ address: recipient })).toBe(parseEther('0.3'))
    expect(await approved(safe, smart, hash)).toBe(1n)
    // The approval is an intent of the wallet's own, in its history.
    const { transactions } = await aw.listHistory({ wallet: smart })
    expect(
      transactions.filter((tx) => tx.meta?.purpose === 'safe_approve_hash' && tx.meta?.safeTxHash === hash),
    ).toMatchObject([{ status: 'confirmed', to: safe, kind: 'multisig' }])
  })

  it('proposes, and the EOA owner confirms and executes with the smart wallet’s approved hash', async () => {
    const recipient = freshAddress()
    const proposed = await aw.proposeSafeTransaction({ safe, wallet: smart, to: recipient, value: '0.2' })
    expect(proposed).toMatchObject({ status: 'pending', confirmations: 1, threshold: 2 })
    const hash = proposed.proposal.safeTxHash
    expect(await approved(safe, smart, hash)).toBe(1n)
    // Asked again (a retry), the approval is not made twice.
    await expect(
      aw.proposeSafeTransaction({ safe, wallet: smart, to: recipient, value: '0.2' }),
    ).rejects.toMatchObject({ code: 'conflict' })

    const confirmed = await aw.confirmSafeTransaction({ safe, safeTxHash: hash, wallet: eoa })

    expect(confirmed).toMatchObject({ status: 'executed', confirmations: 2 })
    expect(confirmed.transaction).toMatchObject({ from: eoa })
    expect(await client.getBalance({ address: recipient })).toBe(parseEther('0.2'))
    const approvals = (await aw.listHistory({ wallet: smart })).transactions.filter(
      (tx) => tx.meta?.safeTxHash === hash,
    )
    expect(approvals).toHaveLength(1)
  })

  it('records the session key’s signature of each approval and no SafeTx signature by a key it does not hold', async () => {
    const lines: AuditLine[] = []
    for await (const line of auditLines(aw.context.storage, 'default')) lines.push(line)
    const { wallet } = await aw.getWallet({ wallet: smart })
    const { transactions } = await aw.listHistory({ wallet: smart })
    const approvals = transactions.filter((tx) => tx.meta?.purpose === 'safe_approve_hash')
    expect(approvals.length).toBeGreaterThanOrEqual(2)
    const sessionOps = lines.filter(
      (line) =>
        line.kind === 'vault.signature' &&
        line.subjects.keyId?.toLowerCase() === wallet.smart!.sessionKey.toLowerCase() &&
        (line.payload as { signed: string }).signed === 'user_operation',
    )
    for (const approval of approvals)
      expect(sessionOps.map((line) => line.subjects.transactionId)).toContain(approval.id)
    // The EOA owner's SafeTx signatures are audited as before; none is recorded under the smart wallet.
    const safeTxSignatures = lines.filter(
      (line) => line.kind === 'vault.signature' && (line.payload as { for?: string }).for === 'safe_proposal',
    )
    expect(safeTxSignatures.map((line) => line.subjects.keyId)).toContain(eoa)
    expect(safeTxSignatures.map((line) => line.subjects.keyId)).not.toContain(smart)
  })
})

describe('a smart wallet as the only owner', () => {
  it('of a 1-of-1 Safe proposes and executes at once', async () => {
    const safe = await deployedSafe([smart], 1, eoa)
    const recipient = freshAddress()

    const proposed = await aw.proposeSafeTransaction({ safe, wallet: smart, to: recipient, value: '0.4' })

    expect(proposed).toMatchObject({ status: 'executed', confirmations: 1, threshold: 1 })
    expect(await client.getBalance({ address: recipient })).toBe(parseEther('0.4'))
    expect(await client.readContract({ address: safe, abi: safeAbi, functionName: 'nonce' })).toBe(1n)
  })

  it('cannot sign with an EIP-1271 contract signature: Safe 1.4.1 asks the legacy isValidSignature(bytes,bytes)', async () => {
    const safe = await deployedSafe([smart], 1, eoa)
    const recipient = freshAddress()
    const hash = await client.readContract({
      address: safe,
      abi: safeAbi,
      functionName: 'getTransactionHash',
      args: [recipient, 1n, '0x', 0, 0n, 0n, 0n, zeroAddress, zeroAddress, 0n],
    })
    // What the HybridDeleGator's ERC-1271 accepts: its owner key's ECDSA signature of the hash.
    const { wallet } = await aw.getWallet({ wallet: smart })
    const owner = await aw.context.vault.getSigner(wallet.smart!.owner)
    const inner = await owner.sign!({ hash })
    expect(
      await client.readContract({
        address: smart,
        abi: erc1271Abi,
        functionName: 'isValidSignature',
        args: [hash, inner],
      }),
    ).toBe('0x1626ba7e')
    // Safe's v = 0 layout: r = owner, s = offset of the dynamic part, v = 0; then length ‖ signature.
    const signatures = concat([pad(smart), toHex(65, { size: 32 }), '0x00', toHex(65, { size: 32 }), inner])
    const exec = (sigs: Hex) =>
      client.call({
        to: safe,
        data: encodeFunctionData({
          abi: approvedHashesAbi,
          functionName: 'execTransaction',
          args: [recipient, 1n, '0x', 0, 0n, 0n, 0n, zeroAddress, zeroAddress, sigs],
        }),
      })
    await expect(exec(signatures)).rejects.toThrow()
    // The approved-hash form passes for the same Safe once the wallet is the caller (what the service uses).
    await expect(
      client.call({
        account: smart,
        to: safe,
        data: encodeFunctionData({
          abi: approvedHashesAbi,
          functionName: 'execTransaction',
          args: [
            recipient,
            1n,
            '0x',
            0,
            0n,
            0n,
            0n,
            zeroAddress,
            zeroAddress,
            concat([pad(smart), zeroHash, '0x01']),
          ],
        }),
      }),
    ).resolves.toBeDefined()
  })
})
