import { startAnvilDevnet } from '../../../test/helpers/anvil.js'
import { walletKindsFlow } from './walletKindsFlow.js'

// The same flow on anvil with the protocol set deployed onto it, reached over HTTP by URL as
// `serve --chain devnet=<url> --address-book devnet=<file>` reaches it.
let url = ''
walletKindsFlow(
  async () => {
    const devnet = await startAnvilDevnet()
    url = devnet.url
    return devnet
  },
  (devnet) => ({ rpcUrl: url, chainId: devnet.chain.id, contracts: devnet.addressBook }),
)
