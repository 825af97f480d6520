// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// @title Lido-like liquid staking for the devnet
/// @notice Same entry point as Lido's stETH, `submit(referral)`, and the staker receives an ERC-20
///         balance. One share is one wei here (no rewards accrue on a devnet), so balances do not rebase.
contract StakedEther is ERC20 {
    event Submitted(address indexed sender, uint256 amount, address referral);

    error ZeroDeposit();

    constructor() ERC20("Liquid staked Ether 2.0", "stETH") {}

    receive() external payable {
        _submit(address(0));
    }

    function submit(address referral) external payable returns (uint256) {
        return _submit(referral);
    }

    function getTotalPooledEther() external view returns (uint256) {
        return address(this).balance;
    }

    function getTotalShares() external view returns (uint256) {
        return totalSupply();
    }

    function sharesOf(address account) external view returns (uint256) {
        return balanceOf(account);
    }

    function getPooledEthByShares(uint256 sharesAmount) external pure returns (uint256) {
        return sharesAmount;
    }

    function getSharesByPooledEth(uint256 ethAmount) external pure returns (uint256) {
        return ethAmount;
    }

    function _submit(address referral) private returns (uint256 shares) {
        if (msg.value == 0) revert ZeroDeposit();
        shares = msg.value;
        _mint(msg.sender, shares);
        emit Submitted(msg.sender, msg.value, referral);
    }
}
