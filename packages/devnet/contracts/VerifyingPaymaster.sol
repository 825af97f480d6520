// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {BasePaymaster} from "@account-abstraction/contracts/core/BasePaymaster.sol";
import {_packValidationData} from "@account-abstraction/contracts/core/Helpers.sol";
import {IEntryPoint} from "@account-abstraction/contracts/interfaces/IEntryPoint.sol";
import {PackedUserOperation} from "@account-abstraction/contracts/interfaces/PackedUserOperation.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import {MessageHashUtils} from "@openzeppelin/contracts/utils/cryptography/MessageHashUtils.sol";

/**
 * A paymaster that pays for a user operation when an off-chain signer (the service's sponsor key) has
 * signed it: the AgentWallet service decides who is sponsored (the `sponsor_gas` rule) and signs; this
 * contract only checks the signature and the validity window. Gas is drawn from the paymaster's
 * EntryPoint deposit (`deposit()`, inherited). Modelled on eth-infinitism's sample VerifyingPaymaster.
 *
 * paymasterAndData = paymaster (20) | validation gas (16) | post-op gas (16)
 *                  | abi.encode(uint48 validUntil, uint48 validAfter) (64) | signature (65)
 */
contract VerifyingPaymaster is BasePaymaster {
    uint256 private constant VALID_TIMESTAMP_OFFSET = PAYMASTER_DATA_OFFSET;
    uint256 private constant SIGNATURE_OFFSET = VALID_TIMESTAMP_OFFSET + 64;

    /// The key whose signature makes an operation sponsored.
    address public verifyingSigner;

    event VerifyingSignerChanged(address indexed previous, address indexed current);

    constructor(IEntryPoint anEntryPoint, address aSigner) BasePaymaster(anEntryPoint) {
        verifyingSigner = aSigner;
        emit VerifyingSignerChanged(address(0), aSigner);
    }

    /// The owner rotates the sponsor key (a new vault key, or a compromised one replaced).
    function setVerifyingSigner(address aSigner) external onlyOwner {
        emit VerifyingSignerChanged(verifyingSigner, aSigner);
        verifyingSigner = aSigner;
    }

    /**
     * What the signer signs (with the EIP-191 prefix): every field of the operation except the
     * signatures, the paymaster's own gas limits, this chain and paymaster, and the validity window.
     */
    function getHash(PackedUserOperation calldata userOp, uint48 validUntil, uint48 validAfter)
        public
        view
        returns (bytes32)
    {
        return keccak256(
            abi.encode(
                userOp.sender,
                userOp.nonce,
                keccak256(userOp.initCode),
                keccak256(userOp.callData),
                userOp.accountGasLimits,
                uint256(bytes32(userOp.paymasterAndData[PAYMASTER_VALIDATION_GAS_OFFSET:PAYMASTER_DATA_OFFSET])),
                userOp.preVerificationGas,
                userOp.gasFees,
                block.chainid,
                address(this),
                validUntil,
                validAfter
            )
        );
    }

    function parsePaymasterAndData(bytes calldata paymasterAndData)
        public
        pure
        returns (uint48 validUntil, uint48 validAfter, bytes calldata signature)
    {
        (validUntil, validAfter) = abi.decode(paymasterAndData[VALID_TIMESTAMP_OFFSET:SIGNATURE_OFFSET], (uint48, uint48));
        signature = paymasterAndData[SIGNATURE_OFFSET:];
    }

    /// A wrong signature is not a revert: the EntryPoint is told the signature failed (AA34).
    function _validatePaymasterUserOp(PackedUserOperation calldata userOp, bytes32, uint256)
        internal
        view
        override
        returns (bytes memory context, uint256 validationData)
    {
        (uint48 validUntil, uint48 validAfter, bytes calldata signature) = parsePaymasterAndData(userOp.paymasterAndData);
        require(signature.length == 64 || signature.length == 65, "VerifyingPaymaster: bad signature length");
        bytes32 hash = MessageHashUtils.toEthSignedMessageHash(getHash(userOp, validUntil, validAfter));
        (address recovered, ECDSA.RecoverError error,) = ECDSA.tryRecover(hash, signature);
        bool failed = error != ECDSA.RecoverError.NoError || recovered != verifyingSigner;
        return ("", _packValidationData(failed, validUntil, validAfter));
    }
}
