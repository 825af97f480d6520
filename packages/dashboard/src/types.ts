import type { AgentWalletClient, OperationName } from '@agentwallet/client'

// The server's JSON shapes the dashboard reads, taken from the operation contract
// (`@agentwallet/core/contract`, through the client's types): nothing here is written by hand
// except the /ws messages, which no operation declares.

/** What operation `N` answers: its declared output, the JSON body without `success`. */
export type Answer<N extends OperationName> = Awaited<ReturnType<AgentWalletClient[N]>>

export type Wallet = Answer<'getWallet'>['wallet']
/** A smart wallet's session key and what the chain lets it do (base units). */
export type SmartWallet = NonNullable<Wallet['smart']>
export type Approval = Answer<'getApproval'>['approval']
/** What a paused transaction does (docs/policy.md, Effects). */
export type Effects = NonNullable<Approval['effects']>
/** One thing a transaction does to the paying account. */
export type Effect = Extract<Effects, { status: 'known' }>['effects'][number]
/** A transaction as lists show it (`getTransaction` answers the same fields and more). */
export type Transaction = Answer<'listHistory'>['transactions'][number]
export type Balance = Answer<'getBalance'>
export type PolicyRule = Answer<'getPolicyRules'>['tenant'][number]
/** One rule's judgement of a dry run, with its figures (the spend already counted in its window). */
export type RuleOutcome = NonNullable<Answer<'evaluatePolicy'>['decision']['outcomes']>[number]
export type WebhookSubscription = Answer<'listWebhooks'>['subscriptions'][number]
export type WebhookDelivery = Answer<'listWebhookDeliveries'>['deliveries'][number]
/** Who a key id is (approvers and admins may read it). */
export type KeyName = Answer<'listKeyNames'>['keys'][number]
export type Role = KeyName['role']
/** Whether the wallet can still pay a paused intent. */
export type ApprovalFunds = Answer<'checkApprovalFunds'>
/** The transaction page (the devnet's explorer). */
export type TransactionDetails = Answer<'getTransactionDetails'>
export type DecodedArgument = TransactionDetails['events'][number]['args'][number]

/** One message of /ws: an event envelope, or the server's `ready` / `error` answers. */
export type WsMessage =
  | { type: 'ready'; tenantId: string; role: Role; since?: number }
  | { type: 'error'; error: { code: string; message: string } }
  | { id: string; type: string; seq: number; timestamp: string; data: Record<string, unknown> }
