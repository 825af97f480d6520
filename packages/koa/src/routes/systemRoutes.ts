import { type AgentWallet, faucetCapEth, isDevChain } from '@agentwallet/core'
import { defineRoute, type RouteSpec } from './defineRoute.js'

export type SystemRouteOptions = {
  agentWallet: AgentWallet
  /** Where the operator finds the admin key (shown by /onboarding), e.g. the key file's path. */
  adminKeyHint?: string | undefined
  /** Builds the OpenAPI document (lazily, once). */
  openApi: () => Record<string, unknown>
}

/** Public endpoints: onboarding and the OpenAPI document (no API key); health is `healthRoutes`. */
export function systemRoutes(options: SystemRouteOptions): RouteSpec[] {
  const chains = () =>
    options.agentWallet.context.chains
      .list()
      .map(({ name, chainId, family }) => ({ name, chainId, family: family ?? 'evm' }))
  return [
    defineRoute({
      method: 'get',
      path: '/onboarding',
      summary: 'Setup state and copy-paste next steps (no API key)',
      auth: 'public',
      handler: async () => ({
        body: {
          success: true,
          ...onboarding(chains(), devChainOf(options.agentWallet), options.adminKeyHint),
        },
      }),
    }),
    defineRoute({
      method: 'get',
      path: '/openapi.json',
      summary: 'This API as an OpenAPI 3.1 document generated from the request schemas (no API key)',
      auth: 'public',
      handler: async () => ({ body: options.openApi() }),
    }),
  ]
}

function onboarding(
  chains: { name: string; chainId: number; family: string }[],
  devChain: string | undefined,
  adminKeyHint: string | undefined,
) {
  // The base URL is a placeholder on purpose: behind a proxy the server cannot know its public address.
  const base = '$AGENTWALLET_URL'
  const admin = '-H "X-API-Key: $AGENTWALLET_API_KEY"'
  const agent = '-H "X-API-Key: $AGENT_KEY"'
  const json = '-H "content-type: application/json"'
  const devnet = chains.find((chain) => chain.name === devChain)
  return {
    service: 'agentwallet',
    chains,
    auth: {
      header: 'X-API-Key',
      roles: {
        agent: 'its own wallets: creates them, sends from them; cannot approve',
        approver: 'reads its tenant and approves or rejects paused sends; never spends',
        admin: 'keys, policy, the faucet, every wallet of its tenant; approves paused sends too',
      },
      approvals:
        'Sends above 0.5 ETH (the default rules) wait for a human: an approver or admin key approves them, never the key that sent (that is a 403 forbidden, even for an admin), so let an agent key send and approve with the admin key.',
      adminKey: adminKeyHint ?? 'printed once by the server on first start',
    },
    steps: [
      {
        title: 'Point your shell at the server, with the admin key',
        command: 'export AGENTWALLET_URL=http://127.0.0.1:8080 AGENTWALLET_API_KEY=<admin key>',
      },
      {
        title: 'Create an agent key, and keep the "key" it answers (shown once)',
        command: `curl -s ${admin} ${json} -d '{"name":"my-agent","role":"agent"}' ${base}/api-keys`,
      },
      { title: 'Use it for the agent’s calls', command: 'export AGENT_KEY=<the key>' },
      {
        title: 'The agent creates a wallet: note its "address"',
        command: `curl -s ${agent} ${json} -d '{"agentName":"my-agent"}' ${base}/wallet/create`,
      },
      ...(devnet
        ? [
            {
              title: `Fund it with test ETH (devnet faucet, admin key; at most ${faucetCapEth} ETH a call; or: agentwallet faucet <address> 10)`,
              command: `curl -s ${admin} ${json} -d '{"address":"<address>","amount":"10"}' ${base}/devnet/faucet`,
            },
          ]
        : []),
      { title: 'Read its balance', command: `curl -s ${agent} ${base}/wallet/<address>/balance` },
      {
        title: 'Send 0.1 ETH (at most 0.5 goes straight through): note the "transaction" id',
        command: `curl -s ${agent} ${json} -d '{"to":"0x70997970C51812dc3A010C7d01b50e0d17dc79C8","value":"0.1"}' ${base}/wallet/<address>/send`,
      },
      {
        title: 'Wait until it is confirmed',
        command: `curl -s ${agent} ${base}/wallet/tx/<transaction id>/wait`,
      },
      {
        title: 'Send 1 ETH: it pauses (202, status pending_approval); note approval.id',
        command: `curl -s ${agent} ${json} -d '{"to":"0x70997970C51812dc3A010C7d01b50e0d17dc79C8","value":"1"}' ${base}/wallet/<address>/send`,
      },
      {
        title: 'Approve it with the admin key (the agent that sent cannot), or in the dashboard',
        command: `curl -s ${admin} -X POST ${base}/policy/approvals/<approval id>/approve`,
      },
      {
        title: 'Change the rules (admin): e.g. require approval above 1 ETH',
        command: `curl -s ${admin} ${json} -d '{"rules":[{"type":"require_approval","asset":"native","above":"1"}]}' ${base}/policy/update`,
      },
      { title: 'Stream events', command: `websocat "ws://127.0.0.1:8080/ws?apiKey=$AGENTWALLET_API_KEY"` },
    ],
    docs: { openapi: '/openapi.json', health: '/health' },
  }
}

/** The first chain the faucet funds on, if any. */
function devChainOf(agentWallet: AgentWallet): string | undefined {
  return agentWallet.context.chains.list().find(isDevChain)?.name
}
