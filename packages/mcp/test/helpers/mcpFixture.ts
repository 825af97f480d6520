import { type AgentWallet, createAgentWallet, memoryStorage, type Principal } from '@agentwallet/core'
import { createDevnet, type Devnet } from '@agentwallet/devnet'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv'
import { parseEther } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { expect } from 'vitest'

/** The human who approves paused sends in these tests. */
export const approver: Principal = { tenantId: 'default', id: 'human-approver', role: 'approver' }

export type Fixture = {
  devnet: Devnet
  /** The operator's AgentWallet (the in-process root admin): sets policy, approves as `approver`. */
  aw: AgentWallet
  agentKey: string
  agent: Principal
  wallet: `0x${string}`
  close(): Promise<void>
}

/**
 * A devnet-backed AgentWallet with an agent key and a funded agent wallet whose native sends above
 * 0.5 wait for a human and above 1 are blocked (`max_per_tx`).
 */
export async function startFixture(devnet?: Devnet): Promise<Fixture> {
  // A one-second ENS commitment age keeps commit/reveal registrations quick.
  const chain = devnet ?? (await createDevnet({ ensMinCommitmentAge: 1 }))
  const aw = await createAgentWallet({
    chains: { devnet: { provider: chain.provider, chainId: chain.chain.id, contracts: chain.addressBook } },
    storage: memoryStorage(),
    defaultTenantRules: [],
    trackerIntervalMs: 20,
  })
  return withAgent(chain, aw, async () => {
    await aw.close()
    if (!devnet) await chain.close()
  })
}

/** Adds the agent key, its funded wallet and the test policy to an existing AgentWallet. */
export async function withAgent(
  devnet: Devnet,
  aw: AgentWallet,
  close: () => Promise<void>,
): Promise<Fixture> {
  const { key: agentKey } = await aw.createApiKey({ name: 'mcp-agent', role: 'agent' })
  const agent = await aw.authenticate(agentKey)
  const { wallet } = await aw.as(agent).createWallet({ agentName: 'mcp-agent' })
  await devnet.faucet(wallet.address, parseEther('10'))
  await aw.updatePolicyRules({
    wallet: wallet.address,
    rules: [
      { type: 'max_per_tx', asset: 'native', max: '1' },
      { type: 'require_approval', asset: 'native', above: '0.5' },
    ],
  })
  return { devnet, aw, agentKey, agent, wallet: wallet.address, close }
}

/** A fresh address nobody holds a key to (balance 0). */
export function freshAddress(): `0x${string}` {
  return privateKeyToAccount(generatePrivateKey()).address
}

/** Calls a tool and returns its answer (the JSON text), with `isError` beside it. A success's
 * `structuredContent` must equal the text and validate against the tool's `outputSchema`. */
export async function callTool(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult
  // biome-ignore lint/suspicious/noExplicitAny: tests read the JSON the tools return
  const data = JSON.parse((result.content[0] as { text: string }).text) as any
  const isError = result.isError === true
  if (!isError) {
    expect(result.structuredContent).toEqual(data)
    const validate = (await outputValidators(client)).get(name)!
    expect(validate(result.structuredContent).errorMessage).toBeUndefined()
  }
  return { isError, data }
}

const validators = new WeakMap<Client, Promise<Map<string, (value: unknown) => { errorMessage?: string }>>>()

/** The stock SDK validator (Ajv with formats) of each listed tool's `outputSchema`. */
function outputValidators(client: Client) {
  let cached = validators.get(client)
  if (!cached) {
    const ajv = new AjvJsonSchemaValidator()
    cached = client.listTools().then(({ tools }) => {
      const byName = new Map<string, (value: unknown) => { errorMessage?: string }>()
      for (const tool of tools)
        if (tool.outputSchema) byName.set(tool.name, ajv.getValidator(tool.outputSchema))
      return byName
    })
    validators.set(client, cached)
  }
  return cached
}

/** Operations no agent tool may reach: approving, rejecting, policy changes, keys, tenants, webhooks, key import. */
export const forbiddenOperations = [
  'approve',
  'reject',
  'updatePolicyRules',
  'createApiKey',
  'listApiKeys',
  'listKeyNames',
  'revokeApiKey',
  'createTenant',
  'importWallet',
  'subscribeWebhook',
  'listWebhooks',
  'listWebhookDeliveries',
  'retryWebhookDelivery',
  'deleteWebhook',
]

/** Tool names that would say a tool approves, changes policy, manages keys or webhooks, or exports keys. */
export const forbiddenToolName =
  /approve|reject|update_polic|api_key|tenant|webhook|export|import|private|mnemonic/i
