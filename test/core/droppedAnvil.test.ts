import { droppedFlow } from './droppedFlow.js'

// The same on anvil, dropped by anvil_dropTransaction.
droppedFlow('anvil')
