import { reorgFlow } from './reorgFlow.js'

// Reorgs on the embedded devnet: evm_snapshot, then evm_revert and new blocks.
reorgFlow('devnet')
