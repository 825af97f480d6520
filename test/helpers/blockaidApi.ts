import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'

export type BlockaidResultType = 'Malicious' | 'Warning' | 'Benign' | 'Error'

/** What the local API answers: by address (lowercase) for address scans, by calldata for transaction scans. */
export type BlockaidApi = {
  url: string
  apiKey: string
  addresses: Map<string, BlockaidResultType>
  calls: Map<string, BlockaidResultType>
  /** Every request's path, in order (to see what was asked, and how often). */
  requests: string[]
  /** `status`: every scan answers that HTTP status; `undefined`: answers again. */
  failWith(status: number | undefined): void
  close(): Promise<void>
}

const descriptions: Record<Exclude<BlockaidResultType, 'Benign' | 'Error'>, string> = {
  Malicious: 'Known drainer: this address stole funds from 1,204 wallets',
  Warning: 'Unverified contract deployed 2 days ago',
}

/**
 * A local HTTP server speaking Blockaid's documented scanning API (docs.blockaid.io:
 * `POST /v0/evm/address/scan`, `POST /v0/evm/transaction/scan`, the `X-API-Key` header), so the adapter
 * is tested through Blockaid's own client. No Blockaid server is reachable here; the answers follow
 * the shapes of the client's types (`AddressValidation`, `TransactionScanResponse.validation`).
 */
export async function startBlockaidApi(): Promise<BlockaidApi> {
  const apiKey = 'blockaid_test_key_0123456789'
  const addresses = new Map<string, BlockaidResultType>()
  const calls = new Map<string, BlockaidResultType>()
  const requests: string[] = []
  let failing: number | undefined
  const server = createServer(async (request, response) => {
    const send = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' })
      response.end(JSON.stringify(body))
    }
    requests.push(request.url ?? '')
    const body = await readJson(request)
    if (request.headers['x-api-key'] !== apiKey) return send(401, { error: 'Unauthorized' })
    if (failing) return send(failing, { error: 'Service unavailable' })
    if (request.method === 'POST' && request.url === '/v0/evm/address/scan') {
      const type = addresses.get(String(body.address).toLowerCase()) ?? 'Benign'
      return send(200, addressValidation(type))
    }
    if (request.method === 'POST' && request.url === '/v0/evm/transaction/scan') {
      const data = body.data as { to?: string; data?: string } | undefined
      const type = calls.get(String(data?.data ?? '0x').toLowerCase()) ?? 'Benign'
      return send(200, { block: '1', chain: body.chain, validation: transactionValidation(type, data?.to) })
    }
    send(404, { error: 'Not found' })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    apiKey,
    addresses,
    calls,
    requests,
    failWith: (status) => {
      failing = status
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}

function addressValidation(type: BlockaidResultType) {
  if (type === 'Error') return { result_type: 'Error', error: 'Could not scan address' }
  if (type === 'Benign') return { result_type: 'Benign', features: [] }
  return {
    result_type: type,
    features: [
      {
        type,
        feature_id: type === 'Malicious' ? 'KNOWN_MALICIOUS' : 'UNVERIFIED_CONTRACT',
        description: descriptions[type],
      },
    ],
  }
}

function transactionValidation(type: BlockaidResultType, to: string | undefined) {
  if (type === 'Error')
    return {
      status: 'Success',
      result_type: 'Error',
      error: 'Simulation failed',
      classification: '',
      description: '',
      reason: '',
      features: [],
    }
  if (type === 'Benign') return { status: 'Success', result_type: 'Benign', features: [] }
  return {
    status: 'Success',
    result_type: type,
    classification: type === 'Malicious' ? 'known_malicious' : 'unverified_contract',
    reason: type === 'Malicious' ? 'transfer_farming' : 'unusual_call',
    description: descriptions[type],
    features: [
      {
        type,
        feature_id: type === 'Malicious' ? 'KNOWN_MALICIOUS' : 'UNVERIFIED_CONTRACT',
        description: descriptions[type],
        address: to,
      },
    ],
  }
}

async function readJson(request: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  try {
    return JSON.parse(Buffer.concat(chunks).toString() || '{}')
  } catch {
    return {}
  }
}
