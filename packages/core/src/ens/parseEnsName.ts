import { labelhash, namehash } from 'viem'
import { normalize } from 'viem/ens'
import { ValidationError } from '../errors/errors.js'

export type ParsedEnsName = {
  /** The ENSIP-15 normalized name, e.g. `agent.eth`. */
  name: string
  labels: string[]
  node: `0x${string}`
}

export type ParsedEthName = ParsedEnsName & { label: string; labelhash: `0x${string}` }

/** The shortest `.eth` label the controller registers, in characters (code points). */
export const minEthLabelLength = 3

/**
 * Normalizes a name with ENSIP-15 (viem `normalize`) or throws `validation_failed`: empty names,
 * empty labels, disallowed characters and emoji sequences that fail normalization are refused.
 * @example parseEnsName('Agent.eth') // { name: 'agent.eth', ... }
 */
export function parseEnsName(input: unknown): ParsedEnsName {
  if (typeof input !== 'string' || input.trim() === '') {
    throw new ValidationError('An ENS name is required', { details: { reason: 'empty' } })
  }
  if (input.length > 255)
    throw new ValidationError('ENS name is too long', { details: { reason: 'too_long' } })
  let name: string
  try {
    name = normalize(input)
  } catch (error) {
    throw new ValidationError('Not a valid ENS name (ENSIP-15 normalization failed)', {
      details: { reason: 'not_normalizable', explanation: (error as Error).message.split('\n')[0] },
    })
  }
  const labels = name.split('.')
  if (labels.some((label) => label === '')) {
    throw new ValidationError('ENS name has an empty label', { details: { reason: 'empty_label' } })
  }
  return { name, labels, node: namehash(name) }
}

/**
 * A second-level `.eth` name the controller can register: `<label>.eth`, label ≥ 3 characters.
 * @example parseEthName('my-agent.eth').label // 'my-agent'
 */
export function parseEthName(input: unknown): ParsedEthName {
  const parsed = parseEnsName(input)
  if (parsed.labels.length !== 2 || parsed.labels[1] !== 'eth') {
    throw new ValidationError('Only second-level .eth names (label.eth) can be registered', {
      details: { reason: 'not_eth_2ld', name: parsed.name },
    })
  }
  const label = parsed.labels[0]!
  if ([...label].length < minEthLabelLength) {
    throw new ValidationError(`A .eth label needs at least ${minEthLabelLength} characters`, {
      details: { reason: 'too_short', name: parsed.name, minLength: minEthLabelLength },
    })
  }
  return { ...parsed, label, labelhash: labelhash(label) }
}
