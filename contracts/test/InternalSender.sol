// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @title InternalSender
/// @notice Test-only contract that forwards native coin with an internal call, to exercise
///         detection of payments that do not appear as top-level transaction values.
contract InternalSender {
    error SendFailed();

    function send(address payable to) external payable {
        (bool ok, ) = to.call{value: msg.value}("");
        if (!ok) revert SendFailed();
    }
}
