import { describe, expect, it } from 'vitest'
import { runStorageConformance } from '../testing/storageConformance.js'
import { memoryStorage } from './memoryStorage.js'

runStorageConformance(
  { describe, it, expect },
  {
    create: () => memoryStorage(),
    skip: {
      durability: 'memory storage is not durable',
      crossProcessLocks: 'memory storage lives in one process',
      crossProcessEvents: 'memory storage lives in one process',
    },
  },
)
