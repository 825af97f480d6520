import { type OperationDeclaration, operationList, toolNameOf } from '@agentwallet/core'
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv'
import { describe, expect, it } from 'vitest'
import { type AgentWalletBackend, agentTools, toolOperations } from '../src/index.js'
import { forbiddenOperations, forbiddenToolName } from './helpers/mcpFixture.js'

/** A backend that records calls: what the tools derive from the table, without a wallet behind them. */
function recordingBackend(answer: Record<string, unknown> = {}) {
  const calls: { operation: string; input: unknown; idempotencyKey: string | undefined }[] = []
  const backend: AgentWalletBackend = {
    kind: 'in-process',
    approvals: { serverUrl: 'http://wallets.example' },
    ready: async () => {},
    async call(operation, input, { idempotencyKey }) {
      calls.push({ operation, input, idempotencyKey })
      return answer
    },
  }
  return { backend, calls }
}

const tools = agentTools(recordingBackend().backend)
const toolOf = (name: string) => tools.find((tool) => tool.name === name)!
const declared = (operationList as readonly OperationDeclaration[]).filter((operation) => operation.tool)

describe('agent tools derived from the operation table', () => {
  it('are exactly the operations declared as tools, create_wallet among them', () => {
    expect(tools.map((tool) => tool.name)).toEqual(declared.map(toolNameOf))
    expect(toolOperations.map((operation) => operation.name)).toEqual(
      declared.map((operation) => operation.name),
    )
    expect(tools.map((tool) => tool.name)).toContain('create_wallet')
    for (const tool of tools) expect(tool.description).toBe(tool.operation.description)
  })

  it('offer only operations agents may call, and none that approves, changes policy or touches keys', () => {
    for (const operation of declared) expect(operation.roles).toContain('agent')
    const names = declared.map((operation) => operation.name)
    expect(names.filter((name) => forbiddenOperations.includes(name))).toEqual([])
    expect(tools.map((tool) => tool.name).filter((name) => forbiddenToolName.test(name))).toEqual([])
  })

  it('annotate from the declaration: send moves value, reads are read-only, idempotent writes say so', () => {
    expect(toolOf('send').annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
      openWorldHint: true,
    })
    expect(toolOf('get_balance').annotations).toMatchObject({
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
    })
    expect(toolOf('create_wallet').annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    })
    for (const tool of tools) {
      expect(tool.annotations.destructiveHint).toBe(tool.operation.movesValue)
      expect(tool.annotations.readOnlyHint).toBe(tool.operation.http.method === 'get')
    }
  })

  it('name the acting wallet `wallet` everywhere, and take an idempotency key exactly where the operation does', () => {
    for (const tool of tools) {
      const properties = Object.keys(tool.inputJsonSchema.properties ?? {})
      for (const alias of ['address', 'from', 'walletAddress']) expect(properties).not.toContain(alias)
      expect(properties.includes('idempotencyKey')).toBe(tool.operation.idempotent)
    }
    expect(toolOf('send').inputJsonSchema).toMatchObject({
      type: 'object',
      required: ['wallet', 'to', 'value'],
      additionalProperties: false,
    })
  })

  it('list input and output schemas that are JSON Schema objects the stock SDK validator compiles', () => {
    const ajv = new AjvJsonSchemaValidator()
    for (const tool of tools) {
      expect(tool.inputJsonSchema.type).toBe('object')
      expect(tool.outputJsonSchema.type).toBe('object')
      expect(() => ajv.getValidator(tool.inputJsonSchema)).not.toThrow()
      expect(() => ajv.getValidator(tool.outputJsonSchema)).not.toThrow()
    }
  })

  it('validate before calling, and pass the idempotency key beside the input', async () => {
    const { backend, calls } = recordingBackend({ wallet: {} })
    const create = agentTools(backend).find((tool) => tool.name === 'create_wallet')!
    await expect(create.handler({ agentName: 'bot', typo: 1 })).rejects.toMatchObject({
      code: 'validation_failed',
    })
    await create.handler({ agentName: 'bot', idempotencyKey: 'create-bot' })
    expect(calls).toEqual([
      { operation: 'createWallet', input: { agentName: 'bot' }, idempotencyKey: 'create-bot' },
    ])
  })

  it('tell how a human approves an answer that waits for one, a field the output schema declares', async () => {
    const paused = {
      status: 'pending_approval',
      hash: null,
      approval: { id: 'apr_1', expiresAt: '2030-01-01T00:00:00.000Z', ruleId: null, reason: 'above 0.5' },
    }
    const { backend } = recordingBackend(paused)
    const send = agentTools(backend).find((tool) => tool.name === 'send')!
    const answer = await send.handler({
      wallet: '0x52908400098527886E0F7030069857D2E4169EE7',
      to: '0x52908400098527886E0F7030069857D2E4169EE7',
      value: '0.8',
    })
    expect(answer.howToApprove).toMatchObject({
      approveUrl: 'http://wallets.example/policy/approvals/apr_1/approve',
      message: expect.stringContaining('apr_1'),
    })
    const schema = toolOf('send').outputJsonSchema as unknown as {
      oneOf: { properties: Record<string, unknown> }[]
    }
    expect(schema.oneOf[0]!.properties).toHaveProperty('howToApprove')
  })
})
