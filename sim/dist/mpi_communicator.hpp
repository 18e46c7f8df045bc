// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The MPI side of cf::dist: the library's life in a process (MpiSession) and the
// Communicator over its ranks. Built only where the MPI library is (CELLFORGE_HAVE_MPI);
// nothing above the drivers includes it.
#include <memory>
#include <string>

#include "sim/dist/communicator.hpp"

namespace cf::dist {

// Whether a launcher (mpirun, mpiexec, srun) started this process as one of a job's
// ranks: the environment it leaves says so. Without one the program runs as one rank and
// never initialises MPI (no daemon started, no delay).
bool launchedAsRank();

// Initialises MPI (thread level MPI_THREAD_MULTIPLE: the runner's thread communicates
// while the main thread waits) and finalises it when destroyed. One per process.
class MpiSession {
public:
    MpiSession(int* argc, char*** argv);
    ~MpiSession();
    MpiSession(const MpiSession&) = delete;
    MpiSession& operator=(const MpiSession&) = delete;
    // A communicator over every rank of the job (a duplicate of MPI_COMM_WORLD).
    std::unique_ptr<Communicator> world() const;
    // Ends the whole job now (after a rank's unrecoverable error; the message is printed
    // by the caller first).
    [[noreturn]] static void abortJob(int exitCode);
};

// What `cellforge-sim backends` prints: the library, its version and whether it passes
// device pointers (without initialising anything).
std::string mpiDescription();

}  // namespace cf::dist
