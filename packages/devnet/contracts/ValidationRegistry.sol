// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {IERC721} from "@openzeppelin/contracts/token/ERC721/IERC721.sol";

/// @title ERC-8004 Validation Registry (devnet build)
/// @notice An agent's owner asks a validator to check work (identified by requestHash); only that
///         validator can answer, with a 0-100 response.
contract ValidationRegistry {
    struct ValidationStatus {
        address validatorAddress;
        uint8 response;
        bool hasResponse;
        uint256 agentId;
        bytes32 responseHash;
        string tag;
        uint256 lastUpdate;
    }

    event ValidationRequest(
        address indexed validatorAddress, uint256 indexed agentId, string requestURI, bytes32 indexed requestHash
    );
    event ValidationResponse(
        address indexed validatorAddress,
        uint256 indexed agentId,
        bytes32 indexed requestHash,
        uint8 response,
        string responseURI,
        bytes32 responseHash,
        string tag
    );

    error NotAuthorized(uint256 agentId, address caller);
    error InvalidValidator();
    error RequestExists(bytes32 requestHash);
    error UnknownRequest(bytes32 requestHash);
    error NotValidator(address caller);
    error ResponseTooHigh(uint8 response);

    IERC721 private immutable _identity;
    mapping(bytes32 requestHash => ValidationStatus) private _validations;
    mapping(uint256 agentId => bytes32[]) private _agentValidations;
    mapping(address validator => bytes32[]) private _validatorRequests;

    constructor(address identityRegistry) {
        _identity = IERC721(identityRegistry);
    }

    function getIdentityRegistry() external view returns (address) {
        return address(_identity);
    }

    function validationRequest(address validatorAddress, uint256 agentId, string calldata requestURI, bytes32 requestHash)
        external
    {
        if (validatorAddress == address(0)) revert InvalidValidator();
        if (_validations[requestHash].validatorAddress != address(0)) revert RequestExists(requestHash);
        address owner = _identity.ownerOf(agentId);
        if (msg.sender != owner && !_identity.isApprovedForAll(owner, msg.sender) && _identity.getApproved(agentId) != msg.sender) {
            revert NotAuthorized(agentId, msg.sender);
        }
        _validations[requestHash] = ValidationStatus(validatorAddress, 0, false, agentId, bytes32(0), "", block.timestamp);
        _agentValidations[agentId].push(requestHash);
        _validatorRequests[validatorAddress].push(requestHash);
        emit ValidationRequest(validatorAddress, agentId, requestURI, requestHash);
    }

    function validationResponse(
        bytes32 requestHash,
        uint8 response,
        string calldata responseURI,
        bytes32 responseHash,
        string calldata tag
    ) external {
        if (response > 100) revert ResponseTooHigh(response);
        ValidationStatus storage s = _validations[requestHash];
        if (s.validatorAddress == address(0)) revert UnknownRequest(requestHash);
        if (msg.sender != s.validatorAddress) revert NotValidator(msg.sender);
        (s.response, s.hasResponse, s.responseHash, s.tag, s.lastUpdate) = (response, true, responseHash, tag, block.timestamp);
        emit ValidationResponse(s.validatorAddress, s.agentId, requestHash, response, responseURI, responseHash, tag);
    }

    function getValidationStatus(bytes32 requestHash)
        external
        view
        returns (address validatorAddress, uint256 agentId, uint8 response, bytes32 responseHash, string memory tag, uint256 lastUpdate)
    {
        ValidationStatus storage s = _validations[requestHash];
        if (s.validatorAddress == address(0)) revert UnknownRequest(requestHash);
        return (s.validatorAddress, s.agentId, s.response, s.responseHash, s.tag, s.lastUpdate);
    }

    function getAgentValidations(uint256 agentId) external view returns (bytes32[] memory) {
        return _agentValidations[agentId];
    }

    function getValidatorRequests(address validatorAddress) external view returns (bytes32[] memory) {
        return _validatorRequests[validatorAddress];
    }

    /// Average response of the answered requests, optionally filtered by validators and tag.
    function getSummary(uint256 agentId, address[] calldata validatorAddresses, string calldata tag)
        external
        view
        returns (uint64 count, uint8 avgResponse)
    {
        bytes32[] storage hashes = _agentValidations[agentId];
        uint256 total;
        for (uint256 i; i < hashes.length; i++) {
            ValidationStatus storage s = _validations[hashes[i]];
            if (!s.hasResponse || !_listed(s.validatorAddress, validatorAddresses)) continue;
            if (bytes(tag).length > 0 && keccak256(bytes(s.tag)) != keccak256(bytes(tag))) continue;
            total += s.response;
            count++;
        }
        avgResponse = count == 0 ? 0 : uint8(total / count);
    }

    function _listed(address validator, address[] calldata list) private pure returns (bool) {
        if (list.length == 0) return true;
        for (uint256 i; i < list.length; i++) {
            if (list[i] == validator) return true;
        }
        return false;
    }
}
