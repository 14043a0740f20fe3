// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @title DepositForwarder
/// @notice Implementation behind the EIP-1167 clones deployed by DepositFactory. A clone is
///         bound once to a destination and can only ever pay that destination.
contract DepositForwarder {
    /// @notice The factory that deployed this implementation. Immutable values live in the
    ///         implementation's code, so every clone reads the same factory through delegatecall.
    address public immutable factory;

    /// @notice The only address this forwarder can pay. Zero until initialized.
    address payable public destination;

    event Initialized(address indexed destination);
    event Flushed(address indexed destination, uint256 amount);
    event TokenFlushed(address indexed token, address indexed destination, uint256 amount);

    error NotFactory();
    error AlreadyInitialized();
    error NotInitialized();
    error ZeroDestination();
    error NativeTransferFailed();
    error BalanceQueryFailed(address token);
    error TokenTransferFailed(address token);

    constructor() {
        factory = msg.sender;
    }

    /// @notice Accepts native coin without any logic, so deposits need as little gas as possible.
    receive() external payable {}

    function initialize(address payable destination_) external {
        if (msg.sender != factory) revert NotFactory();
        if (destination != address(0)) revert AlreadyInitialized();
        if (destination_ == address(0)) revert ZeroDestination();
        destination = destination_;
        emit Initialized(destination_);
    }

    /// @notice Sends the whole native balance to the destination. Anyone may call it.
    function flush() external {
        address payable to = _destination();
        uint256 amount = address(this).balance;
        if (amount == 0) return;
        (bool ok, ) = to.call{value: amount}("");
        if (!ok) revert NativeTransferFailed();
        emit Flushed(to, amount);
    }

    /// @notice Sends the whole balance of an ERC-20 token to the destination. Anyone may call it.
    /// @dev Tolerates tokens whose transfer returns no value (USDT style).
    function flushToken(address token) external {
        address payable to = _destination();

        (bool ok, bytes memory data) = token.staticcall(
            abi.encodeWithSignature("balanceOf(address)", address(this))
        );
        // A call to an address without code succeeds with empty data, hence the length check.
        if (!ok || data.length < 32) revert BalanceQueryFailed(token);
        uint256 amount = abi.decode(data, (uint256));
        if (amount == 0) return;

        (ok, data) = token.call(abi.encodeWithSignature("transfer(address,uint256)", to, amount));
        if (!ok || (data.length != 0 && (data.length < 32 || !abi.decode(data, (bool))))) {
            revert TokenTransferFailed(token);
        }
        emit TokenFlushed(token, to, amount);
    }

    function _destination() private view returns (address payable to) {
        to = destination;
        if (to == address(0)) revert NotInitialized();
    }
}
