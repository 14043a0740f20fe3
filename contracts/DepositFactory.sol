// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {DepositForwarder} from "./DepositForwarder.sol";

/// @title DepositFactory
/// @notice Deploys EIP-1167 DepositForwarder clones with CREATE2. The destination is part of
///         the effective salt, so a deposit address can only ever pay the destination it was
///         computed for.
contract DepositFactory {
    address public immutable implementation;

    event ForwarderDeployed(address indexed forwarder, address indexed destination, bytes32 salt);

    error DeployFailed();

    constructor() {
        implementation = address(new DepositForwarder());
    }

    function computeAddress(address destination, bytes32 salt) public view returns (address) {
        bytes32 hash = keccak256(
            abi.encodePacked(
                bytes1(0xff),
                address(this),
                _effectiveSalt(destination, salt),
                keccak256(_cloneInitCode())
            )
        );
        return address(uint160(uint256(hash)));
    }

    /// @notice Deploys the forwarder for (destination, salt) if needed, then flushes the native
    ///         balance and every listed token to the destination. Anyone may call it; calling it
    ///         again later only flushes.
    function deployAndFlush(
        address payable destination,
        bytes32 salt,
        address[] calldata tokens
    ) external returns (address forwarder) {
        forwarder = computeAddress(destination, salt);
        if (forwarder.code.length == 0) {
            bytes memory initCode = _cloneInitCode();
            bytes32 effectiveSalt = _effectiveSalt(destination, salt);
            address deployed;
            assembly {
                deployed := create2(0, add(initCode, 0x20), mload(initCode), effectiveSalt)
            }
            if (deployed != forwarder) revert DeployFailed();
            DepositForwarder(payable(forwarder)).initialize(destination);
            emit ForwarderDeployed(forwarder, destination, salt);
        }

        DepositForwarder(payable(forwarder)).flush();
        for (uint256 i = 0; i < tokens.length; i++) {
            DepositForwarder(payable(forwarder)).flushToken(tokens[i]);
        }
    }

    function _effectiveSalt(address destination, bytes32 salt) private pure returns (bytes32) {
        return keccak256(abi.encode(destination, salt));
    }

    /// @dev The standard EIP-1167 minimal proxy creation code; off-chain address derivation
    ///      (lib/chains/deposit-address.ts) relies on it being exactly this.
    function _cloneInitCode() private view returns (bytes memory) {
        return
            abi.encodePacked(
                hex"3d602d80600a3d3981f3363d3d373d3d3d363d73",
                implementation,
                hex"5af43d82803e903d91602b57fd5bf3"
            );
    }
}
