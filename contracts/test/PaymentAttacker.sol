// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @title PaymentAttacker
/// @notice Test-only contract that tries to make a deposit address look paid without paying it:
///         value sent in calls that fail or in frames that are rolled back never arrives.
contract PaymentAttacker {
    error SendFailed();
    error RolledBack();

    /// @notice Really sends `paid`, then makes a call of `claimed` that fails (the contract
    ///         does not hold that much), and ignores the failure.
    function payThenFailedCall(address payable to, uint256 paid, uint256 claimed) external payable {
        (bool ok, ) = to.call{value: paid}("");
        if (!ok) revert SendFailed();
        (bool sent, ) = to.call{value: claimed}("");
        emit Attempted(to, claimed, sent);
    }

    /// @notice Really sends `paid`, then sends `claimed` inside a frame that reverts afterwards,
    ///         so the second transfer is undone and the value comes back to this contract.
    function payThenRollBack(address payable to, uint256 paid, uint256 claimed) external payable {
        (bool ok, ) = to.call{value: paid}("");
        if (!ok) revert SendFailed();
        try this.sendAndRevert(to, claimed) {} catch {}
    }

    function sendAndRevert(address payable to, uint256 amount) external {
        (bool ok, ) = to.call{value: amount}("");
        if (!ok) revert SendFailed();
        revert RolledBack();
    }

    /// @notice Several real internal payments in one transaction.
    function payMany(address payable[] calldata to, uint256[] calldata amounts) external payable {
        for (uint256 i = 0; i < to.length; i++) {
            (bool ok, ) = to[i].call{value: amounts[i]}("");
            if (!ok) revert SendFailed();
        }
    }

    /// @notice While paused, forwardUnlessPaused keeps the value: the same transaction then pays
    ///         or does not depending on what ran before it (a re-inclusion after a reorg).
    bool public paused;

    function setPaused(bool value) external {
        paused = value;
    }

    function forwardUnlessPaused(address payable to) external payable {
        if (paused) return;
        (bool ok, ) = to.call{value: msg.value}("");
        if (!ok) revert SendFailed();
    }

    event Attempted(address indexed to, uint256 amount, bool sent);

    receive() external payable {}
}
