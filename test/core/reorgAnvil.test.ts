import { reorgFlow } from './reorgFlow.js'

// The same reorgs on anvil, by anvil_reorg.
reorgFlow('anvil')
