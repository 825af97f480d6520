import type { SponsorGasRule } from '../ruleSchemas.js'
import type { RuleEvaluator } from './ruleVerdict.js'

/**
 * `sponsor_gas` never judges an intent (the engine skips it): it decides who pays a smart wallet's gas,
 * read by `sponsorshipOf` when a user operation is prepared.
 */
export const sponsorGas: RuleEvaluator<SponsorGasRule> = () => undefined
