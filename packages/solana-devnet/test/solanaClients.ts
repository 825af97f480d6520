import {
  appendTransactionMessageInstructions,
  createSolanaRpc,
  createSolanaRpcSubscriptions,
  createTransactionMessage,
  getBase64EncodedWireTransaction,
  type Instruction,
  type KeyPairSigner,
  pipe,
  sendAndConfirmTransactionFactory,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
} from '@solana/kit'
import { type CreateSolanaDevnetOptions, createSolanaDevnet } from '../src/index.js'

/** A devnet served on a free port, with `@solana/kit` clients over HTTP and WebSocket. */
export async function startSolanaDevnet(options: CreateSolanaDevnetOptions = {}) {
  const devnet = await createSolanaDevnet(options)
  const server = await devnet.serve({ port: 0 })
  const rpc = createSolanaRpc(server.url)
  const rpcSubscriptions = createSolanaRpcSubscriptions(server.wsUrl)
  const sendAndConfirm = sendAndConfirmTransactionFactory({ rpc, rpcSubscriptions })

  /** Signs `instructions` with `payer` under the latest (or a given) blockhash. */
  async function sign(
    payer: KeyPairSigner,
    instructions: Instruction[],
    lifetime?: { blockhash: string; lastValidBlockHeight: bigint },
  ) {
    const { value: latest } = await rpc.getLatestBlockhash().send()
    return pipe(
      createTransactionMessage({ version: 0 }),
      (message) => setTransactionMessageFeePayerSigner(payer, message),
      (message) =>
        setTransactionMessageLifetimeUsingBlockhash(
          (lifetime ?? latest) as Parameters<typeof setTransactionMessageLifetimeUsingBlockhash>[0],
          message,
        ),
      (message) => appendTransactionMessageInstructions(instructions, message),
      (message) => signTransactionMessageWithSigners(message),
    )
  }

  return {
    devnet,
    server,
    rpc,
    rpcSubscriptions,
    sendAndConfirm,
    sign,
    wire: getBase64EncodedWireTransaction,
    close: () => devnet.close(),
  }
}
