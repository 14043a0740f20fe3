// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {DepositForwarderV2} from "./DepositForwarderV2.sol";

/// @title DepositFactoryV2
/// @notice Deploys stateless EIP-1167 DepositForwarderV2 clones with CREATE2 and flushes them, one
///         deposit or a batch of many in one transaction. The destination is part of the effective
///         salt (keccak256(abi.encode(destination, salt)), as in the first version), so the address
///         the factory derives from (destination, salt) proves the destination to the clone.
contract DepositFactoryV2 {
    address public immutable implementation;
    bytes32 private immutable cloneCodeHash;

    struct Deposit {
        address payable destination;
        bytes32 salt;
    }

    /// @notice One deposit of a batch could not be flushed; the others were.
    event FlushFailed(address indexed forwarder, bytes reason);

    error DeployFailed();

    constructor() {
        implementation = address(new DepositForwarderV2());
        cloneCodeHash = keccak256(_cloneInitCode());
    }

    function computeAddress(address destination, bytes32 salt) public view returns (address) {
        return _forwarderAt(_effectiveSalt(destination, salt));
    }

    /// @notice Deploys the forwarder for (destination, salt) if needed and flushes the native
    ///         balance and every listed token to the destination; reverts if any of it fails.
    ///         Anyone may call it (a merchant can flush their own deposit).
    function flush(address payable destination, bytes32 salt, address[] calldata tokens) external returns (address forwarder) {
        forwarder = _deployed(destination, salt);
        if (forwarder == address(0)) revert DeployFailed();
        DepositForwarderV2(payable(forwarder)).flush(destination, tokens);
    }

    /// @notice Deploys (where needed) and flushes every deposit, each with at most `gasPerDeposit`
    ///         gas for its flush. A deposit whose flush fails (a destination that reverts or burns
    ///         gas, a token that refuses) emits FlushFailed and the batch goes on with the others.
    /// @return failed How many deposits failed.
    function flushBatch(Deposit[] calldata deposits, address[] calldata tokens, uint256 gasPerDeposit) external returns (uint256 failed) {
        for (uint256 i = 0; i < deposits.length; ++i) {
            address payable destination = deposits[i].destination;
            address forwarder = _deployed(destination, deposits[i].salt);
            if (forwarder == address(0)) {
                emit FlushFailed(computeAddress(destination, deposits[i].salt), "");
                ++failed;
                continue;
            }
            (bool ok, bytes memory reason) = forwarder.call{gas: gasPerDeposit}(abi.encodeCall(DepositForwarderV2.flush, (destination, tokens)));
            if (!ok) {
                emit FlushFailed(forwarder, reason);
                ++failed;
            }
        }
    }

    /// @dev The forwarder's address, deployed now if it has no code yet; zero if the deployment failed.
    function _deployed(address destination, bytes32 salt) private returns (address forwarder) {
        bytes32 effectiveSalt = _effectiveSalt(destination, salt);
        forwarder = _forwarderAt(effectiveSalt);
        // Checked first: CREATE2 onto an address that has code burns all the gas it is given.
        if (forwarder.code.length != 0) return forwarder;
        bytes memory initCode = _cloneInitCode();
        address deployed;
        assembly {
            deployed := create2(0, add(initCode, 0x20), mload(initCode), effectiveSalt)
        }
        if (deployed != forwarder) return address(0);
    }

    function _forwarderAt(bytes32 effectiveSalt) private view returns (address) {
        return address(uint160(uint256(keccak256(abi.encodePacked(bytes1(0xff), address(this), effectiveSalt, cloneCodeHash)))));
    }

    function _effectiveSalt(address destination, bytes32 salt) private pure returns (bytes32) {
        return keccak256(abi.encode(destination, salt));
    }

    /// @dev The standard EIP-1167 minimal proxy creation code; off-chain address derivation
    ///      (lib/chains/deposit-address.ts) relies on it being exactly this.
    function _cloneInitCode() private view returns (bytes memory) {
        return abi.encodePacked(hex"3d602d80600a3d3981f3363d3d373d3d3d363d73", implementation, hex"5af43d82803e903d91602b57fd5bf3");
    }
}
