import type { AddressInfo } from 'node:net'
import type { Devnet } from '@agentwallet/devnet'
import { x402Facilitator } from '@x402/core/facilitator'
import type { FacilitatorClient } from '@x402/core/server'
import { toFacilitatorEvmSigner } from '@x402/evm'
import { ExactEvmScheme as ExactEvmFacilitatorScheme } from '@x402/evm/exact/facilitator'
import { ExactEvmScheme as ExactEvmServerScheme } from '@x402/evm/exact/server'
import { paymentMiddleware, x402ResourceServer } from '@x402/express'
import express from 'express'
import { type Address, createWalletClient, custom, erc20Abi, publicActions } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'

export type PaidRoute = {
  path: string
  amount: bigint
  payTo: Address
  maxTimeoutSeconds?: number
  /** More of the requirement's `extra` (e.g. the payee's ERC-8004 `agentId`). */
  extra?: Record<string, unknown>
  /** The handler's status once paid (default 200); at 400 or more the middleware settles nothing. */
  status?: number
}

/**
 * How the server's facilitator settles: `settles` (verify, then settle on chain once the handler
 * answered below 400: the packages' own flow); `settles_then_fails` settles on chain and then reports a
 * failure (a facilitator that timed out on the receipt), so the middleware answers 402;
 * `settles_at_verify` settles on chain while verifying (the handler's answer then never matters);
 * `refuses` never settles and reports a failure (402).
 */
export type FacilitatorBehaviour = 'settles' | 'settles_then_fails' | 'settles_at_verify' | 'refuses'

export type X402ResourceServer = {
  url: string
  network: `eip155:${number}`
  /** How many times the handler behind each paid route ran (it runs only once paid). */
  served: Record<string, number>
  /** How many requests reached each path, paid or not. */
  asked: Record<string, number>
  /** The `PAYMENT-SIGNATURE` headers each path received, in order (what a payee could still use). */
  paymentHeaders: Record<string, string[]>
  close(): Promise<void>
}

/**
 * A real x402 v2 resource server on 127.0.0.1 (`@x402/express`), with the packages' own facilitator
 * (`@x402/core/facilitator` + `@x402/evm`) verifying and settling on the devnet from a pre-funded
 * account. Each paid route asks `amount` of `token` for `payTo`; `/free` asks nothing.
 */
export async function startX402ResourceServer(
  devnet: Devnet,
  token: Address,
  routes: readonly PaidRoute[],
  options: { facilitator?: FacilitatorBehaviour } = {},
): Promise<X402ResourceServer> {
  const behaviour = options.facilitator ?? 'settles'
  const network = `eip155:${devnet.chain.id}` as const
  const account = privateKeyToAccount(devnet.accounts[8]!.privateKey)
  const client = createWalletClient({
    account,
    chain: devnet.chain,
    transport: custom(devnet.provider),
  }).extend(publicActions)
  const signer = toFacilitatorEvmSigner({
    address: account.address,
    readContract: (args) => client.readContract(args as never),
    verifyTypedData: (args) => client.verifyTypedData(args as never),
    writeContract: (args) => client.writeContract(args as never),
    sendTransaction: (args) => client.sendTransaction(args),
    waitForTransactionReceipt: (args) => client.waitForTransactionReceipt(args),
    getCode: (args) => client.getCode(args),
  })
  const facilitator = new x402Facilitator().register(network, new ExactEvmFacilitatorScheme(signer))
  const refused = (transaction = '') => ({
    success: false,
    errorReason: `facilitator ${behaviour}`,
    transaction,
    network,
  })
  const facilitatorClient: FacilitatorClient = {
    async verify(payload, requirements) {
      const verified = await facilitator.verify(payload, requirements)
      if (behaviour === 'settles_at_verify' && verified.isValid)
        await facilitator.settle(payload, requirements)
      return verified
    },
    async settle(payload, requirements) {
      if (behaviour === 'refuses') return refused()
      if (behaviour === 'settles_at_verify') return refused()
      const settled = await facilitator.settle(payload, requirements)
      return behaviour === 'settles_then_fails' ? refused(settled.transaction) : settled
    },
    getSupported: async () =>
      facilitator.getSupported() as Awaited<ReturnType<FacilitatorClient['getSupported']>>,
  }
  const name = await client.readContract({ address: token, abi: erc20Abi, functionName: 'name' })
  const resourceServer = new x402ResourceServer(facilitatorClient).register(
    network,
    new ExactEvmServerScheme(),
  )
  const served: Record<string, number> = {}
  const asked: Record<string, number> = {}
  const paymentHeaders: Record<string, string[]> = {}
  const app = express()
  app.use((request, _response, next) => {
    asked[request.path] = (asked[request.path] ?? 0) + 1
    const paid = request.header('PAYMENT-SIGNATURE')
    if (paid) paymentHeaders[request.path] = [...(paymentHeaders[request.path] ?? []), paid]
    next()
  })
  app.use(
    paymentMiddleware(
      Object.fromEntries(
        routes.map((route) => [
          `GET ${route.path}`,
          {
            accepts: {
              scheme: 'exact',
              network,
              payTo: route.payTo,
              price: {
                amount: route.amount.toString(),
                asset: token,
                extra: { name, version: '2', ...route.extra },
              },
              maxTimeoutSeconds: route.maxTimeoutSeconds ?? 120,
            },
            description: `paid ${route.path}`,
            mimeType: 'application/json',
          },
        ]),
      ),
      resourceServer,
    ),
  )
  for (const route of routes) {
    served[route.path] = 0
    app.get(route.path, (_request, response) => {
      served[route.path] = (served[route.path] ?? 0) + 1
      response.status(route.status ?? 200).json({ resource: route.path, served: served[route.path] })
    })
  }
  app.get('/free', (_request, response) => {
    response.json({ free: true })
  })
  const server = app.listen(0, '127.0.0.1')
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve)
    server.once('error', reject)
  })
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    network,
    served,
    asked,
    paymentHeaders,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections()
        server.close((error) => (error ? reject(error) : resolve()))
      }),
  }
}
