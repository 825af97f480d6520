import type { IdentityService, RegistrationFile } from './types.js'

/**
 * The ERC-8004 registration file of an agent: name, type, capabilities, services and where it is
 * registered. It is written after the mint, when the agentId is known.
 * @example buildRegistrationFile({ agentName: 'trader', agentType: 'trading', agentId: 7n, agentRegistry })
 */
export function buildRegistrationFile(parameters: {
  agentName: string
  agentType: string
  description?: string | undefined
  capabilities?: readonly string[] | undefined
  services?: readonly IdentityService[] | undefined
  agentId: bigint
  agentRegistry: string
}): RegistrationFile {
  return {
    type: 'https://eips.ethereum.org/EIPS/eip-8004#registration-v1',
    name: parameters.agentName,
    description: parameters.description ?? `${parameters.agentType} agent ${parameters.agentName}`,
    agentType: parameters.agentType,
    capabilities: [...(parameters.capabilities ?? [])],
    services: [...(parameters.services ?? [])],
    registrations: [{ agentId: parameters.agentId.toString(), agentRegistry: parameters.agentRegistry }],
    active: true,
  }
}

const dataUriPrefix = 'data:application/json;base64,'

/** A `data:` URI carrying the file, for deployments with no hosting configured. */
export function toDataUri(file: RegistrationFile): string {
  return `${dataUriPrefix}${Buffer.from(JSON.stringify(file), 'utf8').toString('base64')}`
}

/** The JSON inside a `data:application/json;base64,` URI; undefined for other URIs or broken JSON. */
export function fromDataUri(uri: string): unknown {
  if (!uri.startsWith(dataUriPrefix)) return undefined
  try {
    return JSON.parse(Buffer.from(uri.slice(dataUriPrefix.length), 'base64').toString('utf8'))
  } catch {
    // Anyone can write the URI on chain: a broken file is reported as absent, not as our failure.
    return undefined
  }
}
