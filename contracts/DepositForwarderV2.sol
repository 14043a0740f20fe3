// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @title DepositForwarderV2
/// @notice Implementation behind the EIP-1167 clones deployed by DepositFactoryV2. A clone keeps no
///         state at all: only its factory may flush it, and the factory names the destination,
///         which it proves by deriving the clone's CREATE2 address from (destination, salt). So a
///         clone can still only ever pay the destination it was computed for, without the storage
///         write (about 22,000 gas) the first version's initialize() cost per deposit.
contract DepositForwarderV2 {
    /// @notice The factory that deployed this implementation (in the implementation's code, so every clone reads it through delegatecall).
    address public immutable factory;

    error NotFactory();
    error NativeTransferFailed();
    error BalanceQueryFailed(address token);
    error TokenTransferFailed(address token);

    constructor() {
        factory = msg.sender;
    }

    /// @notice Accepts native coin without any logic, so deposits need as little gas as possible.
    receive() external payable {}

    /// @notice Sends the whole native balance and the whole balance of each token to `destination`.
    /// @dev Tolerates tokens whose transfer returns no value (USDT style).
    function flush(address payable destination, address[] calldata tokens) external {
        if (msg.sender != factory) revert NotFactory();
        uint256 amount = address(this).balance;
        if (amount != 0) {
            (bool sent, ) = destination.call{value: amount}("");
            if (!sent) revert NativeTransferFailed();
        }
        for (uint256 i = 0; i < tokens.length; ++i) {
            address token = tokens[i];
            (bool ok, bytes memory data) = token.staticcall(abi.encodeWithSelector(0x70a08231, address(this)));
            // A call to an address without code succeeds with empty data, hence the length check.
            if (!ok || data.length < 32) revert BalanceQueryFailed(token);
            uint256 balance = abi.decode(data, (uint256));
            if (balance == 0) continue;
            (ok, data) = token.call(abi.encodeWithSelector(0xa9059cbb, destination, balance));
            if (!ok || (data.length != 0 && (data.length < 32 || !abi.decode(data, (bool))))) {
                revert TokenTransferFailed(token);
            }
        }
    }
}
