import type { AgentWallet } from '@agentwallet/core'
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
    options.agentWallet.context.chains.list().map(({ name, chainId }) => ({ name, chainId }))
  return [
    defineRoute({
      method: 'get',
      path: '/onboarding',
      summary: 'Setup state and copy-paste next steps (no API key)',
      auth: 'public',
      handler: async () => ({ body: { success: true, ...onboarding(chains(), options.adminKeyHint) } }),
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

function onboarding(chains: { name: string; chainId: number }[], adminKeyHint: string | undefined) {
  // The base URL is a placeholder on purpose: behind a proxy the server cannot know its public address.
  const base = '$AGENTWALLET_URL'
  const auth = '-H "X-API-Key: $AGENTWALLET_API_KEY"'
  const json = '-H "content-type: application/json"'
  return {
    service: 'agentwallet',
    chains,
    auth: {
      header: 'X-API-Key',
      roles: {
        agent: 'its own wallets',
        approver: 'approvals of its tenant',
        admin: 'keys, policy, everything in its tenant',
      },
      adminKey: adminKeyHint ?? 'printed once by the server on first start',
    },
    steps: [
      {
        title: 'Point your shell at the server',
        command: 'export AGENTWALLET_URL=http://127.0.0.1:8080 AGENTWALLET_API_KEY=<admin key>',
      },
      {
        title: 'Create an agent key',
        command: `curl -s ${auth} ${json} -d '{"name":"my-agent","role":"agent"}' ${base}/api-keys`,
      },
      {
        title: 'Create a wallet',
        command: `curl -s ${auth} ${json} -d '{"agentName":"my-agent"}' ${base}/wallet/create`,
      },
      { title: 'Read its balance', command: `curl -s ${auth} ${base}/wallet/<address>/balance` },
      {
        title: 'Require approval above 1 ETH',
        command: `curl -s ${auth} ${json} -d '{"rules":[{"type":"require_approval","asset":"native","above":"1"}]}' ${base}/policy/update`,
      },
      {
        title: 'Send',
        command: `curl -s ${auth} ${json} -d '{"to":"0x…","value":"0.01"}' ${base}/wallet/<address>/send`,
      },
      { title: 'Stream events', command: `websocat "ws://127.0.0.1:8080/ws?apiKey=$AGENTWALLET_API_KEY"` },
    ],
    docs: { openapi: '/openapi.json', health: '/health' },
  }
}
