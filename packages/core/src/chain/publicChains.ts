import type { Address } from 'viem'
import type { AddressBook } from './types.js'

/** Safe v1.4.1 canonical deployment (singleton factory, same address on every chain). */
const safe141 = {
  singleton: '0x41675C099F32341bf84BFc5382aF534df5C7461a',
  singletonL2: '0x29fcB43b46531BcA003ddC8FCB67FFE91900C762',
  proxyFactory: '0x4e1DCf7AD4e460CfD30791CCC4F9c8a4f820ec67',
  fallbackHandler: '0xfd0732Dc9E303f09fCEf3a7388Ad10A83459Ec99',
  multiSend: '0x38869bf66a61cF6bDB996A6aE40D5853Fd43B526',
  multiSendCallOnly: '0x9641d764fc13c8B624c04430C7356C1C7C8102e2',
} as const satisfies AddressBook['safe']

/**
 * ERC-8004 registries as published by the erc-8004/erc-8004-contracts repository: Identity and
 * Reputation from its README; the Validation Registry (its spec still in discussion) from the same
 * repository's deployment addresses (`scripts/addresses.ts`, the vanity `0x8004C…` proxies).
 */
const erc8004Mainnets = {
  identityRegistry: '0x8004A169FB4a3325136EB29fA0ceB6D2e539a432',
  reputationRegistry: '0x8004BAa17C55a88189AE136b182e5fdA19dE9b63',
  validationRegistry: '0x8004Cc8439f36fd5F9F049D9fF86523Df6dAAB58',
} as const satisfies AddressBook['erc8004']
const erc8004Testnets = {
  identityRegistry: '0x8004A818BFB912233c491871b3d84c89A494BD9e',
  reputationRegistry: '0x8004B663056A597Dffe9eCcC1965A193B7388713',
  validationRegistry: '0x8004Cb1BF31DAf7788923b405b754f57acEB4272',
} as const satisfies AddressBook['erc8004']

/**
 * ENS (docs.ens.domains/learn/deployments and ensdomains/ens-contracts `deployments/`): the registry and
 * the `.eth` base registrar have the same address on mainnet and Sepolia; controllers, resolvers and
 * reverse registrars differ. Both chains' controllers use the current (2023+) ABI.
 */
const ensRegistry: Address = '0x00000000000C2E074eC69A0dFb2997BA6C7d2e1e'
const ensBaseRegistrar: Address = '0x57f1887a8BF19b14fC0dF6Fd9B2acc9Af147eA85'

/**
 * Chainlink USD price feeds (the standard proxies, 8 decimals). Sources, all published by Chainlink:
 * - mainnet: smartcontractkit/hardhat-chainlink `src/registries/json/DataFeeds.json` (ETH/USD,
 *   USDC/USD, DAI/USD; ETH/USD also in smartcontractkit/documentation
 *   `src/content/quickstarts/historical-price-feeds-api.mdx`);
 * - Sepolia ETH/USD: smartcontractkit/documentation `public/samples/DataFeeds/HistoricalDataConsumer.sol`
 *   and `src/content/data-feeds/api-reference.mdx`;
 * - Base Sepolia ETH/USD: smartcontractkit/documentation `src/content/cre-templates/x402-price-alerts.mdx`;
 * - every pair of every chain here: the feed catalogue of Chainlink's `@chainlink/mcp-server@0.0.1-alpha.17`
 *   (`data/feeds/ethereum.json`, `data/feeds/base.json`), the data behind
 *   docs.chain.link/data-feeds/price-feeds/addresses.
 * Heartbeats differ per feed (ETH/USD 1 h on mainnet, stablecoins 24 h): see `priceFeedMaxAge`.
 */
const chainlinkUsdFeeds = {
  mainnet: {
    'ETH/USD': '0x5f4eC3Df9cbd43714FE2740f5E3616155c5b8419',
    'USDC/USD': '0x8fFfFfd4AfB6115b954Bd326cbe7B4BA576818f6',
    'DAI/USD': '0xAed0c38402a5d19df6E4c03F4E2DceD6e29c1ee9',
  },
  sepolia: {
    'ETH/USD': '0x694AA1769357215DE4FAC081bf1f309aDC325306',
    'USDC/USD': '0xA2F78ab2355fe2f984D808B5CeE7FD0A93D5270E',
  },
  base: {
    'ETH/USD': '0x71041dddad3595F9CEd3DcCFBe3D1F4b0a16Bb70',
    'USDC/USD': '0x7e860098F58bBFC8648a4311b374B1D669a2bc6B',
  },
  'base-sepolia': {
    'ETH/USD': '0x4aDC67696bA383F43DD60A9e78F2C97Fbbfc7cb1',
    'USDC/USD': '0xd30e2101a97dcbAeBCBC04F14C3f624E67A35165',
  },
} as const satisfies Record<string, NonNullable<AddressBook['priceFeeds']>>

export type KnownChain = {
  chainId: number
  testnet: boolean
  explorerUrl: string
  contracts: AddressBook
}

/**
 * Public chains AgentWallet knows by name, with canonical protocol addresses. A configured chain
 * with one of these names inherits the entry; its own `contracts` override field by field.
 */
export const publicChains: Record<string, KnownChain> = {
  mainnet: {
    chainId: 1,
    testnet: false,
    explorerUrl: 'https://etherscan.io',
    contracts: {
      weth: '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2',
      tokens: [
        { address: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48', symbol: 'USDC', decimals: 6 },
        { address: '0x6B175474E89094C44Da98b954EedeAC495271d0F', symbol: 'DAI', decimals: 18 },
        { address: '0xae7ab96520DE3A18E5e111B5EaAb095312D7fE84', symbol: 'stETH', decimals: 18 },
      ],
      uniswapV2: [
        {
          name: 'uniswap-v2',
          factory: '0x5C69bEe701ef814a2B6a3EDD4B1652CB9cc5aA6f',
          router: '0x7a250d5630B4cF539739dF2C5dAcb4c659F2488D',
        },
      ],
      uniswapV3: [
        {
          name: 'uniswap-v3',
          factory: '0x1F98431c8aD98523631AE4a59f267346ea31F984',
          router: '0x68b3465833fb72A70ecDF485E0e4C7bD8665Fc45',
          quoter: '0x61fFE014bA17989E743c5F6cB21bF9697530B21e',
        },
      ],
      safe: safe141,
      ens: {
        registry: ensRegistry,
        baseRegistrar: ensBaseRegistrar,
        controller: '0x59E16fcCd424Cc24e280Be16E11Bcd56fb0CE547',
        publicResolver: '0xF29100983E058B709F3D539b0c765937B804AC15',
        reverseRegistrar: '0xa58E81fe9b61B5c3fE2AFD33CF304c454AbFc7Cb',
        controllerAbi: 'current',
      },
      erc8004: erc8004Mainnets,
      staking: { lido: '0xae7ab96520DE3A18E5e111B5EaAb095312D7fE84' },
      priceFeeds: chainlinkUsdFeeds.mainnet,
    },
  },
  sepolia: {
    chainId: 11155111,
    testnet: true,
    explorerUrl: 'https://sepolia.etherscan.io',
    contracts: {
      weth: '0xfFf9976782d46CC05630D1f6eBAb18b2324d6B14',
      tokens: [{ address: '0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238', symbol: 'USDC', decimals: 6 }],
      uniswapV2: [
        {
          name: 'uniswap-v2',
          factory: '0xF62c03E08ada871A0bEb309762E260a7a6a880E6',
          router: '0xeE567Fe1712Faf6149d80dA1E6934E354124CfE3',
        },
      ],
      safe: safe141,
      ens: {
        registry: ensRegistry,
        baseRegistrar: ensBaseRegistrar,
        controller: '0xfb3cE5D01e0f33f41DbB39035dB9745962F1f968',
        publicResolver: '0xE99638b40E4Fff0129D56f03b55b6bbC4BBE49b5',
        reverseRegistrar: '0xA0a1AbcDAe1a2a4A2EF8e9113Ff0e02DD81DC0C6',
        controllerAbi: 'current',
      },
      erc8004: erc8004Testnets,
      priceFeeds: chainlinkUsdFeeds.sepolia,
    },
  },
  base: {
    chainId: 8453,
    testnet: false,
    explorerUrl: 'https://basescan.org',
    contracts: {
      weth: '0x4200000000000000000000000000000000000006',
      tokens: [{ address: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', symbol: 'USDC', decimals: 6 }],
      uniswapV2: [
        {
          name: 'uniswap-v2',
          factory: '0x8909Dc15e40173Ff4699343b6eB8132c65e18eC6',
          router: '0x4752ba5DBc23f44D87826276BF6Fd6b1C372aD24',
        },
      ],
      uniswapV3: [
        {
          name: 'uniswap-v3',
          factory: '0x33128a8fC17869897dcE68Ed026d694621f6FDfD',
          router: '0x2626664c2603336E57B271c5C0b26F421741e481',
          quoter: '0x3d4e44Eb1374240CE5F1B871ab261CD16335B76a',
        },
      ],
      safe: safe141,
      erc8004: erc8004Mainnets,
      priceFeeds: chainlinkUsdFeeds.base,
    },
  },
  'base-sepolia': {
    chainId: 84532,
    testnet: true,
    explorerUrl: 'https://sepolia.basescan.org',
    contracts: {
      weth: '0x4200000000000000000000000000000000000006',
      // Circle's test USDC, the asset x402 testnet payments use (also in smartcontractkit/documentation
      // `src/content/cre-templates/x402-price-alerts.mdx`).
      tokens: [{ address: '0x036CbD53842c5426634e7929541eC2318f3dCF7e', symbol: 'USDC', decimals: 6 }],
      // docs.uniswap.org/contracts/v3/reference/deployments/base-deployments (Base Sepolia column).
      uniswapV3: [
        {
          name: 'uniswap-v3',
          factory: '0x4752ba5DBc23f44D87826276BF6Fd6b1C372aD24',
          router: '0x94cC0AaC535CCDB3C01d6787D6413C739ae12bc4',
          quoter: '0xC5290058841028F1614F3A6F0F5816cAd0df5E27',
        },
      ],
      safe: safe141,
      erc8004: erc8004Testnets,
      priceFeeds: chainlinkUsdFeeds['base-sepolia'],
    },
  },
}
