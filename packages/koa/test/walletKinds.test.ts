import { createDevnet } from '@agentwallet/devnet'
import { walletKindsFlow } from './walletKindsFlow.js'

// The three wallet kinds over HTTP on the embedded devnet (EDR, in process).
walletKindsFlow(() => createDevnet())
