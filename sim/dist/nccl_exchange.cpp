// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/dist/nccl_exchange.hpp"

#include <dlfcn.h>
#include <nccl.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime_api.h>
#include <vector>

#include "sim/core/errors.hpp"

namespace cf::dist {

namespace {

// The NCCL functions used, looked up in the library opened at run time.
struct NcclApi {
    void* handle = nullptr;
    decltype(&::ncclGetVersion) getVersion = nullptr;
    decltype(&::ncclGetUniqueId) getUniqueId = nullptr;
    decltype(&::ncclCommInitRank) commInitRank = nullptr;
    decltype(&::ncclCommDestroy) commDestroy = nullptr;
    decltype(&::ncclGroupStart) groupStart = nullptr;
    decltype(&::ncclGroupEnd) groupEnd = nullptr;
    decltype(&::ncclSend) send = nullptr;
    decltype(&::ncclRecv) recv = nullptr;
    decltype(&::ncclAllReduce) allReduce = nullptr;
    decltype(&::ncclGetErrorString) errorString = nullptr;

    // Opens the library; `why` says what is missing when it returns false.
    bool open(std::string& why) {
        handle = dlopen("libnccl.so.2", RTLD_NOW | RTLD_LOCAL);
        if (!handle) {
            why = "NCCL is not installed (libnccl.so.2 not found)";
            return false;
        }
        bool ok = true;
        auto get = [&](auto& f, const char* name) {
            f = reinterpret_cast<std::remove_reference_t<decltype(f)>>(dlsym(handle, name));
            ok = ok && f != nullptr;
        };
        get(getVersion, "ncclGetVersion");
        get(getUniqueId, "ncclGetUniqueId");
        get(commInitRank, "ncclCommInitRank");
        get(commDestroy, "ncclCommDestroy");
        get(groupStart, "ncclGroupStart");
        get(groupEnd, "ncclGroupEnd");
        get(send, "ncclSend");
        get(recv, "ncclRecv");
        get(allReduce, "ncclAllReduce");
        get(errorString, "ncclGetErrorString");
        if (!ok) why = "libnccl.so.2 lacks a function this program needs";
        return ok;
    }
};

class NcclExchange final : public StreamExchange {
public:
    NcclExchange(NcclApi api, ncclComm_t comm, std::string name)
        : api_(api), comm_(comm), name_(std::move(name)) {}
    ~NcclExchange() override {
        api_.commDestroy(comm_);
        dlclose(api_.handle);
    }

    void exchange(std::span<const Transfer> transfers, void* stream) override {
        // Both sides order their messages with one peer by tag (the peer's send with tag T
        // is this rank's receive with tag T).
        order_.assign(transfers.begin(), transfers.end());
        std::stable_sort(order_.begin(), order_.end(), [](const Transfer& a, const Transfer& b) {
            return a.peer != b.peer ? a.peer < b.peer : a.tag < b.tag;
        });
        const auto s = static_cast<cudaStream_t>(stream);
        check(api_.groupStart(), "ncclGroupStart");
        for (const Transfer& t : order_) {
            if (t.peer < 0) continue;
            if (t.recv) check(api_.recv(t.recv, t.bytes, ncclChar, t.peer, comm_, s), "ncclRecv");
            if (t.send) check(api_.send(t.send, t.bytes, ncclChar, t.peer, comm_, s), "ncclSend");
        }
        check(api_.groupEnd(), "ncclGroupEnd");
    }

    void sumDoubles(const double* send, double* recv, std::size_t count, void* stream) override {
        check(api_.allReduce(send, recv, count, ncclDouble, ncclSum, comm_,
                             static_cast<cudaStream_t>(stream)),
              "ncclAllReduce");
    }

    std::string name() const override { return name_; }

private:
    void check(ncclResult_t r, const char* what) const {
        if (r != ncclSuccess)
            throw Error(std::string("NCCL: ") + what + ": " + api_.errorString(r));
    }

    NcclApi api_;
    ncclComm_t comm_;
    std::string name_;
    std::vector<Transfer> order_;
};

std::string versionName(int version) {
    return "NCCL " + std::to_string(version / 10000) + "." + std::to_string(version / 100 % 100) +
           "." + std::to_string(version % 100);
}

}  // namespace

std::string ncclDescription() {
    NcclApi api;
    std::string why;
    if (!api.open(why)) return why;
    int version = 0;
    api.getVersion(&version);
    dlclose(api.handle);
    return versionName(version) +
           (std::getenv("CELLFORGE_NCCL") && std::strcmp(std::getenv("CELLFORGE_NCCL"), "0") == 0
                ? " (off: CELLFORGE_NCCL=0)"
                : "");
}

std::unique_ptr<StreamExchange> makeNcclExchange(Communicator& comm, std::string& why) {
    // Every rank takes part in the broadcast below, whatever it found, so none waits alone.
    NcclApi api;
    bool usable = true;
    if (const char* off = std::getenv("CELLFORGE_NCCL"); off && std::strcmp(off, "0") == 0) {
        why = "CELLFORGE_NCCL=0 in the environment";
        usable = false;
    } else {
        int device = -1;
        if (cudaGetDevice(&device) != cudaSuccess) {
            why = "no CUDA device";
            usable = false;
        } else {
            usable = api.open(why);
        }
    }
    // NCCL wants one GPU per rank: with more ranks than GPUs on a host (oversubscribed) its
    // set-up would not return. Every rank names its device; rank 0 looks for a repeat.
    std::string device;
    if (usable) {
        int d = 0;
        char bus[64] = {};
        if (cudaGetDevice(&d) == cudaSuccess &&
            cudaDeviceGetPCIBusId(bus, static_cast<int>(sizeof bus), d) == cudaSuccess)
            device = comm.host() + " " + bus;
    }
    std::vector<std::string> devices = comm.gatherStrings(device, 0);
    devices.erase(std::remove(devices.begin(), devices.end(), std::string()), devices.end());
    std::sort(devices.begin(), devices.end());
    const bool shared =
        comm.rank() == 0 && std::adjacent_find(devices.begin(), devices.end()) != devices.end();
    if (comm.anyOf(shared)) {
        why = "two ranks share a GPU (NCCL needs one GPU per rank)";
        usable = false;
    }
    ncclUniqueId id{};
    if (comm.rank() == 0 && usable && api.getUniqueId(&id) != ncclSuccess) {
        why = "ncclGetUniqueId failed";
        usable = false;
    }
    if (comm.anyOf(!usable)) {
        if (api.handle) dlclose(api.handle);
        if (why.empty()) why = "another rank cannot use NCCL";
        return nullptr;
    }
    std::vector<std::byte> bytes(sizeof id);
    std::memcpy(bytes.data(), &id, sizeof id);
    comm.broadcast(bytes, 0);
    std::memcpy(&id, bytes.data(), sizeof id);
    ncclComm_t nccl = nullptr;
    const ncclResult_t r = api.commInitRank(&nccl, comm.size(), id, comm.rank());
    if (comm.anyOf(r != ncclSuccess)) {
        why = r != ncclSuccess ? std::string("ncclCommInitRank: ") + api.errorString(r)
                               : "ncclCommInitRank failed on another rank";
        if (nccl) api.commDestroy(nccl);
        dlclose(api.handle);
        return nullptr;
    }
    int version = 0;
    api.getVersion(&version);
    return std::make_unique<NcclExchange>(api, nccl, versionName(version));
}

}  // namespace cf::dist
