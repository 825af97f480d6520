import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import {
  type Abi,
  type Address,
  createPublicClient,
  createWalletClient,
  formatEther,
  type Hex,
  http,
  parseEther,
  zeroAddress,
} from 'viem'
import {
  createBundlerClient,
  entryPoint08Abi,
  entryPoint08Address,
  getUserOperationHash,
  type SmartAccount,
  toSimple7702SmartAccount,
} from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  type Bundler,
  jsonRpcBundler,
  maxGasCostOf,
  memoryKeyVault,
  type SignedUserOperation,
  sponsoredGasSince,
  sponsorshipOf,
  type VaultSigner,
  verifyingPaymaster,
} from '../../packages/core/src/index.js'
import { createDevnet, type Devnet, type DevnetServer } from '../../packages/devnet/src/index.js'
import { type AltoBundler, startAlto } from '../helpers/altoBundler.js'

const require = createRequire(import.meta.url)
const simple7702Account = JSON.parse(
  readFileSync(require.resolve('@account-abstraction/contracts/artifacts/Simple7702Account.json'), 'utf8'),
) as { abi: Abi; bytecode: Hex }

describe('jsonRpcBundler against a real bundler (@pimlico/alto) on the devnet', () => {
  let devnet: Devnet
  let server: DevnetServer
  let alto: AltoBundler
  let bundler: Bundler
  let implementation: Address
  const publicClient = () =>
    createPublicClient({ chain: devnet.chain, transport: http(server.url, { retryCount: 0 }) })

  beforeAll(async () => {
    devnet = await createDevnet()
    server = await devnet.serve({ port: 0 })
    const deployer = createWalletClient({
      chain: devnet.chain,
      transport: http(server.url, { retryCount: 0 }),
      account: privateKeyToAccount(devnet.accounts[7]!.privateKey),
    })
    // eth-infinitism's Simple7702Account: the EIP-7702 delegate viem's toSimple7702SmartAccount speaks.
    const hash = await deployer.deployContract({
      abi: simple7702Account.abi,
      bytecode: simple7702Account.bytecode,
    })
    implementation = (await publicClient().waitForTransactionReceipt({ hash, pollingInterval: 10 }))
      .contractAddress!
    expect(devnet.addressBook.accountAbstraction.entryPoint).toBe(entryPoint08Address)
    alto = await startAlto({
      rpcUrl: server.url,
      entryPoint: entryPoint08Address,
      executorKey: devnet.accounts[8]!.privateKey,
      utilityKey: devnet.accounts[9]!.privateKey,
    })
    bundler = jsonRpcBundler({ url: alto.url, name: 'alto' })
  }, 120_000)
  afterAll(async () => {
    await alto?.stop()
    await devnet?.close()
  })

  /** A fresh EOA with 1 ETH, as a Simple7702Account once its first op carries the authorization. */
  async function freshAccount() {
    const owner = privateKeyToAccount(generatePrivateKey())
    await devnet.faucet(owner.address, parseEther('1'))
    const account = await toSimple7702SmartAccount({ client: publicClient(), owner, implementation })
    return { owner, account }
  }

  /** Prepares (viem, through alto's estimates) and signs an op; `authorize` delegates the EOA first. */
  async function signedOp(
    account: SmartAccount,
    calls: { to: Address; value?: bigint }[],
    options: { authorize?: boolean; signer?: Hex; paymaster?: ReturnType<typeof verifyingPaymaster> } = {},
  ): Promise<SignedUserOperation> {
    const client = createBundlerClient({
      client: publicClient(),
      transport: http(alto.url, { retryCount: 0 }),
    })
    const owner = (account as unknown as { owner: ReturnType<typeof privateKeyToAccount> }).owner
    const authorization = options.authorize
      ? await owner.signAuthorization({
          chainId: devnet.chain.id,
          contractAddress: implementation,
          nonce: await publicClient().getTransactionCount({ address: owner.address }),
        })
      : undefined
    const prepared = await client.prepareUserOperation({
      account,
      calls,
      authorization,
      paymaster: options.paymaster,
    })
    const signer = options.signer
      ? await toSimple7702SmartAccount({
          client: publicClient(),
          owner: privateKeyToAccount(options.signer),
          implementation,
        })
      : account
    const signature = await signer.signUserOperation({ ...prepared, sender: account.address } as never)
    return { ...prepared, signature } as SignedUserOperation
  }

  async function receiptOf(hash: Hex) {
    for (let attempt = 0; attempt < 400; attempt++) {
      const receipt = await bundler.getUserOperationReceipt(hash)
      if (receipt) return receipt
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    throw new Error(`user operation ${hash} was not included`)
  }

  it('sends an op through alto; it is included and its receipt read back; unknown hashes have none', async () => {
    const { owner, account } = await freshAccount()
    const recipient = privateKeyToAccount(generatePrivateKey()).address
    const op = await signedOp(account, [{ to: recipient, value: parseEther('0.01') }], { authorize: true })

    const hash = await bundler.sendUserOperation(op, entryPoint08Address)

    expect(hash).toBe(
      getUserOperationHash({
        chainId: devnet.chain.id,
        entryPointAddress: entryPoint08Address,
        entryPointVersion: '0.8',
        userOperation: op,
      }),
    )
    const receipt = await receiptOf(hash)
    expect(receipt.success).toBe(true)
    expect(receipt.sender).toBe(owner.address)
    expect(receipt.userOpHash).toBe(hash)
    expect(receipt.receipt.status).toBe('success')
    expect(await publicClient().getBalance({ address: recipient })).toBe(parseEther('0.01'))
    // The account paid its own gas (no paymaster): its prefund went to its EntryPoint deposit, which
    // kept what the op did not use, so balance + deposit fell by exactly the op's actual gas cost.
    const deposit = await publicClient().readContract({
      address: entryPoint08Address,
      abi: entryPoint08Abi,
      functionName: 'balanceOf',
      args: [owner.address],
    })
    expect(receipt.actualGasCost).toBeGreaterThan(0n)
    expect((await publicClient().getBalance({ address: owner.address })) + deposit).toBe(
      parseEther('0.99') - receipt.actualGasCost,
    )
    expect(await bundler.getUserOperationReceipt(`0x${'ab'.repeat(32)}`)).toBeUndefined()
  })

  it('estimates an op’s gas limits through alto', async () => {
    const { account } = await freshAccount()
    const op = await signedOp(account, [{ to: account.address, value: 0n }], { authorize: true })

    const gas = await bundler.estimateUserOperationGas(op, entryPoint08Address)

    expect(gas.callGasLimit).toBeGreaterThan(0n)
    expect(gas.verificationGasLimit).toBeGreaterThan(0n)
    expect(gas.preVerificationGas).toBeGreaterThan(0n)
  })

  it('a bad signature is refused: user_operation_rejected with the bundler’s JSON-RPC code and reason', async () => {
    const { account } = await freshAccount()
    const op = await signedOp(account, [{ to: account.address, value: 0n }], {
      authorize: true,
      signer: generatePrivateKey(),
    })

    const error = await bundler.sendUserOperation(op, entryPoint08Address).catch((e: unknown) => e)

    expect(error).toMatchObject({
      code: 'user_operation_rejected',
      // -32507: the account's signature check failed (the EntryPoint's AA24, in alto's reason).
      details: { bundler: 'alto', rpcCode: -32507, reason: expect.stringContaining('AA24') },
    })
  })

  it('invalid params are validation_failed, a reverting validation -32500; an unreachable bundler is chain_unavailable', async () => {
    const { account } = await freshAccount()
    const op = await signedOp(account, [{ to: account.address, value: 0n }], { authorize: true })
    await expect(
      bundler.sendUserOperation(op, '0x0000000000000000000000000000000000004337'),
    ).rejects.toMatchObject({ code: 'validation_failed', details: { rpcCode: -32602 } })
    await expect(
      bundler.sendUserOperation({ ...op, signature: '0x' }, entryPoint08Address),
    ).rejects.toMatchObject({ code: 'user_operation_rejected', details: { rpcCode: -32500 } })

    const nowhere = jsonRpcBundler({ url: 'http://127.0.0.1:9' })
    await expect(nowhere.sendUserOperation(op, entryPoint08Address)).rejects.toMatchObject({
      code: 'chain_unavailable',
    })
    await expect(nowhere.getUserOperationReceipt(`0x${'ab'.repeat(32)}`)).rejects.toMatchObject({
      code: 'chain_unavailable',
    })
  })

  function depositOf(address: Address) {
    return publicClient().readContract({
      address: entryPoint08Address,
      abi: entryPoint08Abi,
      functionName: 'balanceOf',
      args: [address],
    })
  }

  describe('sponsored gas: the tenant’s VerifyingPaymaster, signed by its sponsor key', () => {
    // The sponsor key is a key of the service's vault; core signs with its VaultSigner.
    let sponsor: VaultSigner
    let paymaster: Address
    beforeAll(async () => {
      const vault = memoryKeyVault()
      sponsor = await vault.getSigner(await vault.createKey())
      paymaster = await devnet.deployVerifyingPaymaster({ signer: sponsor.address, deposit: parseEther('1') })
    })

    it('a sponsored op leaves the account untouched and draws the paymaster’s deposit', async () => {
      const { owner, account } = await freshAccount()
      const recipient = privateKeyToAccount(generatePrivateKey()).address
      const before = await depositOf(paymaster)
      const op = await signedOp(account, [{ to: recipient, value: parseEther('0.01') }], {
        authorize: true,
        paymaster: verifyingPaymaster({ address: paymaster, signer: sponsor }),
      })

      const receipt = await receiptOf(await bundler.sendUserOperation(op, entryPoint08Address))

      expect(receipt.success).toBe(true)
      expect(receipt.paymaster).toBe(paymaster)
      expect(await publicClient().getBalance({ address: recipient })).toBe(parseEther('0.01'))
      // Only the value sent left the account: no prefund, no gas.
      expect(await publicClient().getBalance({ address: owner.address })).toBe(parseEther('0.99'))
      expect(await depositOf(owner.address)).toBe(0n)
      expect(receipt.actualGasCost).toBeGreaterThan(0n)
      expect(await depositOf(paymaster)).toBe(before - receipt.actualGasCost)
    })

    it('an op signed by another key than the paymaster’s signer is refused (AA34)', async () => {
      const { account } = await freshAccount()
      const stranger = privateKeyToAccount(generatePrivateKey())
      // The estimate passes (a paymaster signature failure is not a revert); the send is refused.
      const op = await signedOp(account, [{ to: account.address, value: 0n }], {
        authorize: true,
        paymaster: verifyingPaymaster({ address: paymaster, signer: stranger }),
      })
      await expect(bundler.sendUserOperation(op, entryPoint08Address)).rejects.toMatchObject({
        code: 'user_operation_rejected',
        details: { rpcCode: -32507, reason: expect.stringContaining('AA34') },
      })
    })

    it('sponsor_gas: sponsored while the daily cap has room; once spent, the wallet pays its own gas', async () => {
      const { owner, account } = await freshAccount()
      const sponsored = verifyingPaymaster({ address: paymaster, signer: sponsor })
      const first = await signedOp(account, [{ to: account.address, value: 0n }], {
        authorize: true,
        paymaster: sponsored,
      })
      // A cap of exactly the first op's worst case: it fits once, and what it really spent leaves
      // less room than the next op's worst case.
      const rules = [
        { type: 'sponsor_gas', max: formatEther(maxGasCostOf(first)), window: '1d', over: 'wallet' },
      ]
      const spentSince = (since: Date, over: 'wallet' | 'tenant') =>
        sponsoredGasSince(publicClient(), {
          entryPoint: entryPoint08Address,
          paymaster,
          sender: over === 'wallet' ? account.address : undefined,
          since,
        })
      const now = async () => new Date(Number((await publicClient().getBlock()).timestamp) * 1000 + 1_000)

      expect(
        await sponsorshipOf({ rules, now: await now(), maxCost: maxGasCostOf(first), spentSince }),
      ).toMatchObject({ sponsored: true })
      const firstReceipt = await receiptOf(await bundler.sendUserOperation(first, entryPoint08Address))
      expect(firstReceipt.paymaster).toBe(paymaster)
      expect(await spentSince(new Date(0), 'wallet')).toBe(firstReceipt.actualGasCost)

      const second = await signedOp(account, [{ to: account.address, value: 0n }], { paymaster: sponsored })
      expect(firstReceipt.actualGasCost + maxGasCostOf(second)).toBeGreaterThan(maxGasCostOf(first))
      const decision = await sponsorshipOf({
        rules,
        now: await now(),
        maxCost: maxGasCostOf(second),
        spentSince,
      })
      expect(decision).toMatchObject({
        sponsored: false,
        reason: 'cap_reached',
        details: { spent: firstReceipt.actualGasCost.toString(), window: '1d' },
      })

      // Not sponsored: the same calls go out without a paymaster, paid from the account.
      const balanceBefore =
        (await publicClient().getBalance({ address: owner.address })) + (await depositOf(owner.address))
      const unsponsored = await signedOp(account, [{ to: account.address, value: 0n }])
      const receipt = await receiptOf(await bundler.sendUserOperation(unsponsored, entryPoint08Address))
      expect(receipt.success).toBe(true)
      expect(receipt.paymaster ?? zeroAddress).toBe(zeroAddress)
      expect(
        (await publicClient().getBalance({ address: owner.address })) + (await depositOf(owner.address)),
      ).toBe(balanceBefore - receipt.actualGasCost)
      // The paymaster paid nothing more for this wallet.
      expect(await spentSince(new Date(0), 'wallet')).toBe(firstReceipt.actualGasCost)
    })

    it('sponsoredGasSince: over the tenant every account the paymaster paid for, within the window only', async () => {
      const sponsored = verifyingPaymaster({ address: paymaster, signer: sponsor })
      const fresh = new Date(Number((await publicClient().getBlock()).timestamp) * 1000 + 1_000)
      // Blocks within one second share a timestamp: the ops' blocks a second on, past the earlier ones'.
      await devnet.increaseTime(1)
      const costs: bigint[] = []
      for (const { account } of [await freshAccount(), await freshAccount()]) {
        const op = await signedOp(account, [{ to: account.address, value: 0n }], {
          authorize: true,
          paymaster: sponsored,
        })
        costs.push((await receiptOf(await bundler.sendUserOperation(op, entryPoint08Address))).actualGasCost)
      }
      const since = (at: Date) =>
        sponsoredGasSince(publicClient(), { entryPoint: entryPoint08Address, paymaster, since: at })
      // Blocks from `fresh` on hold only these two ops of this paymaster (the earlier tests' are before).
      expect(await since(fresh)).toBe(costs[0]! + costs[1]!)
      expect(await since(new Date(0))).toBeGreaterThan(costs[0]! + costs[1]!)
      const later = new Date(Number((await publicClient().getBlock()).timestamp) * 1000 + 60_000)
      expect(await since(later)).toBe(0n)
    })
  })
})
