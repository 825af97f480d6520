import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  agentTools,
  createMcpServer,
  inProcessBackend,
  type RunningMcpHttp,
  serveStreamableHttp,
} from '../src/index.js'
import { callTool, type Fixture, freshAddress, startFixture } from './helpers/mcpFixture.js'

const token = 'test-mcp-token-0123456789'
let fixture: Fixture
let http: RunningMcpHttp

beforeAll(async () => {
  fixture = await startFixture()
  const tools = agentTools(inProcessBackend({ session: fixture.aw.as(fixture.agent) }))
  http = await serveStreamableHttp({ createServer: () => createMcpServer(tools), port: 0, token })
})
afterAll(async () => {
  await http?.close()
  await fixture?.close()
})

async function connect(headers: Record<string, string>): Promise<Client> {
  const client = new Client({ name: 'http-test-agent', version: '1.0.0' })
  await client.connect(new StreamableHTTPClientTransport(new URL(http.url), { requestInit: { headers } }))
  return client
}

describe('MCP over streamable HTTP', () => {
  it('serves the tools to a client with the bearer token', async () => {
    const client = await connect({ authorization: `Bearer ${token}` })
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('send')
      expect((await callTool(client, 'list_wallets')).data).toMatchObject({
        count: 1,
        wallets: [{ address: fixture.wallet }],
      })
      const blocked = await callTool(client, 'send', {
        wallet: fixture.wallet,
        // Not the wallet itself: rules count effects, and a send to oneself moves nothing.
        to: freshAddress(),
        value: '5',
      })
      expect(blocked.data.error.code).toBe('policy_blocked')
    } finally {
      await client.close()
    }
  })

  it('answers 401 without the token and 405 to a GET', async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' })
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }
    const anonymous = await fetch(http.url, { method: 'POST', headers, body })
    expect(anonymous.status).toBe(401)
    expect(((await anonymous.json()) as { error: { code: number } }).error.code).toBe(-32001)
    const get = await fetch(http.url, { headers: { authorization: `Bearer ${token}` } })
    expect(get.status).toBe(405)
  })

  it('refuses a foreign Host header (DNS rebinding)', async () => {
    const { request } = await import('node:http')
    const status = await new Promise<number>((resolve, reject) => {
      const url = new URL(http.url)
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'POST',
          headers: {
            host: 'evil.example',
            authorization: `Bearer ${token}`,
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
          },
        },
        (response) => {
          response.resume()
          resolve(response.statusCode ?? 0)
        },
      )
      req.on('error', reject)
      req.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }))
    })
    expect(status).toBe(403)
  })
})
