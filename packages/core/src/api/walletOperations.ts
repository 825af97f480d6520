import { createWalletOfKind } from '../smartWallets/createWalletOfKind.js'
import { upgradeWallet } from '../smartWallets/upgradeWallet.js'
import { importWallet } from '../wallets/createWallet.js'
import { getBalance } from '../wallets/getBalance.js'
import { getWallet } from '../wallets/getWallet.js'
import { listWallets } from '../wallets/listWallets.js'
import { walletContract } from '../wallets/walletContract.js'
import { bindOperation } from './defineOperation.js'

/** Wallets: list, create, import, upgrade, read, balances. */
export const walletOperations = [
  bindOperation(walletContract.listWallets, listWallets),
  bindOperation(walletContract.createWallet, createWalletOfKind),
  bindOperation(walletContract.importWallet, importWallet),
  bindOperation(walletContract.upgradeWallet, upgradeWallet),
  bindOperation(walletContract.getWallet, getWallet),
  bindOperation(walletContract.getBalance, getBalance),
] as const
