import { droppedFlow } from './droppedFlow.js'

// A dropped tx on the embedded devnet.
droppedFlow('devnet')
