import { allowanceContract } from '../allowances/allowanceContract.js'
import { approvalContract } from '../approvals/approvalContract.js'
import { auditContract } from '../audit/auditContract.js'
import { defiContract } from '../defi/defiContract.js'
import { devnetContract } from '../devnet/devnetContract.js'
import { ensContract } from '../ens/ensContract.js'
import { identityContract } from '../identity/identityContract.js'
import { multisigContract } from '../multisig/multisigContract.js'
import { paymentContract } from '../payments/paymentContract.js'
import { policyContract } from '../policy/policyContract.js'
import { principalContract } from '../principals/principalContract.js'
import { screeningContract } from '../screening/screeningContract.js'
import { transactionContract } from '../transactions/transactionContract.js'
import { walletContract } from '../wallets/walletContract.js'
import { webhookContract } from '../webhooks/webhookContract.js'

/**
 * Every operation's contract, in HTTP matching order (fixed paths such as `/wallet/list` before
 * `/wallet/:wallet`): what OpenAPI, the client and the agent tools derive from. A domain's entries
 * come in the order its `defineContracts` lists them, so a new entry needs no edit here.
 */
export const contractList = [
  ...Object.values(walletContract),
  ...Object.values(transactionContract),
  ...Object.values(policyContract),
  ...Object.values(approvalContract),
  ...Object.values(principalContract),
  ...Object.values(webhookContract),
  ...Object.values(identityContract),
  ...Object.values(ensContract),
  ...Object.values(defiContract),
  ...Object.values(allowanceContract),
  ...Object.values(multisigContract),
  ...Object.values(paymentContract),
  ...Object.values(devnetContract),
  ...Object.values(auditContract),
  ...Object.values(screeningContract),
]

export type Contract = (typeof contractList)[number]
export type ContractName = Contract['name']
/** The contract of the operation named `N`. */
export type ContractNamed<N extends ContractName> = Extract<Contract, { name: N }>

/** The contracts by name. */
export const contracts = Object.fromEntries(contractList.map((contract) => [contract.name, contract])) as {
  [N in ContractName]: ContractNamed<N>
}
