import {
  type Abi,
  type Address,
  encodeDeployData,
  getContractAddress,
  type Hex,
  numberToHex,
  parseGwei,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import type { Artifact } from './loadArtifact.js'
import type { DevnetProvider } from './types.js'

export type Deployer = {
  address: Address
  /** Deploys `artifact` with constructor `args`; resolves to the new contract's address. */
  deploy(artifact: Artifact, args?: readonly unknown[]): Promise<Address>
  /** Sends a call (or value) and waits for its successful receipt. */
  send(tx: { to: Address; data?: Hex | undefined; value?: bigint | undefined }): Promise<Hex>
  /** Sends an already signed transaction and checks it succeeded. */
  sendRaw(raw: Hex): Promise<Hex>
}

/**
 * Sends the devnet's set-up transactions as raw signed transactions, so the persistence journal can
 * replay them byte for byte. Nonces are tracked locally: the deployer is the only sender during set-up.
 */
export async function createDeployer(
  provider: DevnetProvider,
  chainId: number,
  privateKey: Hex,
): Promise<Deployer> {
  const account = privateKeyToAccount(privateKey)
  let nonce = Number(
    await provider.request({ method: 'eth_getTransactionCount', params: [account.address, 'pending'] }),
  )

  async function sendRaw(raw: Hex): Promise<Hex> {
    const hash: Hex = await provider.request({ method: 'eth_sendRawTransaction', params: [raw] })
    const receipt = await receiptOf(provider, hash)
    if (receipt?.status !== '0x1') throw new Error(`devnet set-up transaction ${hash} failed`)
    return hash
  }

  async function send({
    to,
    data,
    value,
  }: {
    to?: Address | undefined
    data?: Hex | undefined
    value?: bigint | undefined
  }) {
    const call = {
      from: account.address,
      to,
      data,
      value: value === undefined ? undefined : numberToHex(value),
    }
    const gas = BigInt(await provider.request({ method: 'eth_estimateGas', params: [call] }))
    const raw = await account.signTransaction({
      type: 'eip1559',
      chainId,
      nonce: nonce++,
      to,
      data,
      value,
      // Headroom over the estimate: some set-up calls (pair creation) estimate tightly.
      gas: (gas * 12n) / 10n,
      maxFeePerGas: parseGwei('50'),
      maxPriorityFeePerGas: 0n,
    })
    return sendRaw(raw)
  }

  return {
    address: account.address,
    sendRaw,
    send: (tx) => send(tx),
    async deploy(artifact, args = []) {
      const address = getContractAddress({ from: account.address, nonce: BigInt(nonce) })
      await send({ data: encodeDeployData({ abi: artifact.abi as Abi, bytecode: artifact.bytecode, args }) })
      return address
    },
  }
}

/**
 * The receipt of `hash`: at once on an automining chain; on one that mines on a timer (`blockTime`),
 * once the next block holds it (polled, for at most a minute).
 */
async function receiptOf(provider: DevnetProvider, hash: Hex): Promise<{ status?: string } | null> {
  const deadline = Date.now() + 60_000
  for (;;) {
    const receipt = await provider.request({ method: 'eth_getTransactionReceipt', params: [hash] })
    if (receipt || Date.now() > deadline) return receipt
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}
