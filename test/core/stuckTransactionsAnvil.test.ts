import { stuckTransactionsFlow } from './stuckTransactionsFlow.js'

// The same fee spikes on anvil (anvil_setNextBlockBaseFeePerGas, automine off).
stuckTransactionsFlow('anvil')
