// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Typed errors. Library code throws these and never prints or exits; the CLI and
// the GUI catch them at their boundary and decide how to tell the user. Whether an error
// is the user's (bad input, exit 2) or a failure (exit 3) is decided by its type alone:
// every kind of bad input derives from InputError (sim/core/exit_status.hpp maps them).
#include <stdexcept>
#include <string>

namespace cf {

class Error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// The input is wrong: what the user gave (a scenario, a parameter, a file they name, an
// option) cannot be used as it is. Fixing the input fixes it; nothing failed.
class InputError : public Error {
public:
    using Error::Error;
};

// A parameter name, type or value is wrong. The message names the parameter, the value
// and the allowed range.
class ParameterError : public InputError {
public:
    using InputError::InputError;
};

// A scenario file is malformed. The message starts with "file:line:column:".
class ScenarioError : public InputError {
public:
    using InputError::InputError;
};

// A file the input names cannot be used: it does not exist, is a directory or cannot be
// read, or its contents are refused (malformed or unsupported: a scenario, SBML, model,
// mesh or checkpoint file). The message starts with the file's path, followed by the line
// (and column) where the parser gives one.
class InputFileError : public InputError {
public:
    using InputError::InputError;
};

// A file could not be written, or read back while the program does its work (output,
// a full disk): a failure, not bad input. Files the user names throw InputFileError.
class IoError : public Error {
public:
    using Error::Error;
};

// The simulation itself failed while running (a non-finite value, an overflowing buffer).
class SimulationError : public Error {
public:
    using Error::Error;
};

// The device has no memory for what the model needs next (a population that grew). Thrown
// before anything of the step is changed: the state is that of the last completed step,
// so it can be saved and continued (on a larger device, or on the CPU).
class OutOfDeviceMemoryError : public SimulationError {
public:
    using SimulationError::SimulationError;
};

// A geometry cannot be used as asked: a mesh that is not closed, obstacles that cannot be
// placed at the requested volume fraction, a lattice frame that does not fit. The message
// names the mesh (file) or the obstacle class.
class GeometryError : public InputError {
public:
    using InputError::InputError;
};

// A CUDA runtime call or kernel launch failed. Carries the expression or kernel name
// and the source location of the check.
class CudaError : public Error {
public:
    CudaError(int code, std::string what, std::string expression, std::string location)
        : Error(std::move(what)),
          code_(code),
          expression_(std::move(expression)),
          location_(std::move(location)) {}
    int code() const noexcept { return code_; }
    const std::string& expression() const noexcept { return expression_; }
    const std::string& location() const noexcept { return location_; }

private:
    int code_;
    std::string expression_;
    std::string location_;
};

}  // namespace cf
