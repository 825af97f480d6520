import { stuckTransactionsFlow } from './stuckTransactionsFlow.js'

// Fee spikes on the embedded devnet.
stuckTransactionsFlow('devnet')
