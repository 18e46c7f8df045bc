// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The exit statuses cellforge-sim and cellforge promise (README, "Exit codes"), and the
// one rule that turns an error into one: bad input is whatever derives from InputError
// (sim/core/errors.hpp), anything else that stops a program is a failure. Programs catch
// at their boundary, print the message once and return exitStatusFor(error).
#include <exception>

#include "sim/core/errors.hpp"

namespace cf {

inline constexpr int kExitOk = 0;
inline constexpr int kExitBadInput = 2;   // scenario, parameter, option or a file they name
inline constexpr int kExitRunFailed = 3;  // a failure: during the run, the GPU, a full disk
inline constexpr int kExitInterrupted = 130;

inline bool isBadInput(const std::exception& e) noexcept {
    return dynamic_cast<const InputError*>(&e) != nullptr;
}

inline int exitStatusFor(const std::exception& e) noexcept {
    return isBadInput(e) ? kExitBadInput : kExitRunFailed;
}

}  // namespace cf
