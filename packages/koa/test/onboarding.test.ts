import { createAgentWallet, memoryStorage } from '@agentwallet/core'
import { createDevnet } from '@agentwallet/devnet'
import { createApp, createLogger } from '@agentwallet/koa'
import { expect, it } from 'vitest'

/** One `curl` line of /onboarding as a request: `-H` headers, `-d` body, `-X` method, the URL last. */
function parseCurl(command: string, vars: Record<string, string>) {
  const expanded = command.replace(/\$([A-Z_]+)/g, (_, name: string) => {
    if (!(name in vars)) throw new Error(`onboarding uses $${name}, which no earlier step exported`)
    return vars[name]!
  })
  const headers: Record<string, string> = {}
  for (const [, name, value] of expanded.matchAll(/-H "([^:]+): ([^"]*)"/g))
    headers[name!.toLowerCase()] = value!
  const body = /-d '([^']*)'/.exec(expanded)?.[1]
  const method = /-X (\w+)/.exec(expanded)?.[1] ?? (body === undefined ? 'GET' : 'POST')
  const url = expanded.trim().split(/\s+/).at(-1)!
  return { url, init: { method, headers, body } }
}

it('the /onboarding steps, followed in order, reach a confirmed send, and a paused one approved by the admin', async () => {
  const devnet = await createDevnet()
  // The default rules, as `agentwallet serve` starts a tenant: above 0.5 ETH waits for a human.
  const agentWallet = await createAgentWallet({
    chains: {
      devnet: { provider: devnet.provider, chainId: devnet.chain.id, contracts: devnet.addressBook },
    },
    storage: memoryStorage(),
    trackerIntervalMs: 20,
  })
  const { key: adminKey } = (await agentWallet.bootstrapAdmin({})) as { key: string }
  const server = await createApp({
    agentWallet,
    logger: createLogger({ level: 'silent' }),
    rateLimit: false,
  }).listen({
    port: 0,
  })
  try {
    const { steps } = (await (await fetch(`${server.url}/onboarding`)).json()) as {
      steps: { title: string; command: string }[]
    }
    const vars: Record<string, string> = {}
    // What a person copies from one answer into the next command.
    const placeholders: Record<string, string> = { '<admin key>': adminKey }
    const statuses: string[] = []
    for (const step of steps) {
      let command = step.command
      for (const [placeholder, value] of Object.entries(placeholders))
        command = command.replaceAll(placeholder, value)
      if (command.startsWith('export ')) {
        for (const [, name, value] of command.matchAll(/([A-Z_]+)=(\S+)/g)) vars[name!] = value!
        vars.AGENTWALLET_URL = server.url
        continue
      }
      if (!command.startsWith('curl ')) continue
      if (command.includes('<')) throw new Error(`step "${step.title}" still has a placeholder: ${command}`)
      const { url, init } = parseCurl(command, vars)
      const response = await fetch(url, init)
      const answer = (await response.json()) as {
        success?: boolean
        status?: string
        key?: string
        wallet?: { address: string }
        transaction?: { id: string }
        approval?: { id: string }
      }
      expect(answer.success, `${step.title}: ${JSON.stringify(answer)}`).toBe(true)
      if (answer.key) placeholders['<the key>'] = answer.key
      if (answer.wallet?.address) placeholders['<address>'] = answer.wallet.address
      if (answer.transaction?.id) placeholders['<transaction id>'] = answer.transaction.id
      if (answer.approval?.id) placeholders['<approval id>'] = answer.approval.id
      if (answer.status) statuses.push(answer.status)
    }
    // Sent, confirmed; then a send that paused and was approved.
    expect(statuses).toEqual(['submitted', 'confirmed', 'pending_approval'])
    const approved = await fetch(`${server.url}/wallet/tx/${placeholders['<transaction id>']}/wait`, {
      headers: { 'x-api-key': adminKey },
    })
    expect(((await approved.json()) as { status: string }).status).toBe('confirmed')
  } finally {
    await server.close()
    await agentWallet.close()
    await devnet.close()
  }
})
