// SPDX-License-Identifier: GPL-3.0-or-later
// The model's state arrays for Python without copies (python/cellforge/_arrays.py wraps
// them): their descriptions with raw addresses, a DLPack capsule for a device array, and
// the explicit copy of one to the host.
#include "python/src/state_arrays.hpp"

#include <dlpack/dlpack.h>
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <string>
#include <vector>

#include "sim/core/errors.hpp"
#include "sim/core/views.hpp"

namespace py = pybind11;

namespace cf::py_arrays {

namespace {

// NumPy's type string of a state array's scalars ("<f8"); the DLPack capsule reads its kind
// and size back from it.
const char* typestrOf(ScalarType t) {
    switch (t) {
        case ScalarType::F32:
            return "<f4";
        case ScalarType::F64:
            return "<f8";
        case ScalarType::I32:
            return "<i4";
        case ScalarType::U32:
            return "<u4";
        case ScalarType::U64:
            return "<u8";
        case ScalarType::U8:
            return "|u1";
    }
    throw Error("unknown scalar type of a state array");
}

py::dict describe(const StateArray& a) {
    const std::size_t item = sizeOf(a.type);
    const std::size_t stride = a.stride ? a.stride : static_cast<std::size_t>(a.components);
    py::dict d;
    d["name"] = a.name;
    d["unit"] = a.unit;
    d["description"] = a.description;
    d["field"] = a.field;
    d["component"] = a.component;
    d["typestr"] = typestrOf(a.type);
    d["itemsize"] = item;
    // One axis for a single value per entry, two for several; strides in bytes.
    if (a.components == 1) {
        d["shape"] = py::make_tuple(a.count);
        d["strides"] = py::make_tuple(stride * item);
    } else {
        d["shape"] = py::make_tuple(a.count, a.components);
        d["strides"] = py::make_tuple(stride * item, item);
    }
    d["address"] = reinterpret_cast<std::uintptr_t>(a.data);
    d["device"] = a.space == MemorySpace::Device ? a.device : -1;
    d["space"] = a.space == MemorySpace::Device ? "cuda" : "cpu";
    return d;
}

// What a DLPack capsule owns: the tensor, its shape and strides, and a reference to the
// Python object that keeps the model (and so the memory) alive.
struct DlpackOwner {
    DLManagedTensor tensor{};
    std::vector<std::int64_t> shape, strides;
    PyObject* keepAlive = nullptr;
};

void deleteOwner(DLManagedTensor* self) {
    auto* owner = static_cast<DlpackOwner*>(self->manager_ctx);
    {
        py::gil_scoped_acquire gil;  // the consumer may free it from any thread
        Py_XDECREF(owner->keepAlive);
    }
    delete owner;
}

// Called when the capsule dies: a consumer renames it "used_dltensor" and calls the deleter
// itself; an unconsumed one is freed here.
void capsuleDestructor(PyObject* capsule) {
    if (PyCapsule_IsValid(capsule, "dltensor")) {
        auto* tensor = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(capsule, "dltensor"));
        if (tensor && tensor->deleter) tensor->deleter(tensor);
    }
}

py::capsule dlpackCapsule(std::uintptr_t address, int device, const std::string& typestr,
                          const std::vector<std::int64_t>& shape,
                          const std::vector<std::int64_t>& stridesBytes, py::object keepAlive) {
    if (typestr.size() < 3) throw Error("state array: bad type string " + typestr);
    const char kind = typestr[1];
    const int bytes = std::stoi(typestr.substr(2));
    auto* owner = new DlpackOwner;
    owner->shape = shape;
    for (std::int64_t s : stridesBytes)
        owner->strides.push_back(s / bytes);  // DLPack counts elements
    owner->keepAlive = keepAlive.release().ptr();
    DLTensor& t = owner->tensor.dl_tensor;
    t.data = reinterpret_cast<void*>(address);
    t.device = {device >= 0 ? kDLCUDA : kDLCPU, device >= 0 ? device : 0};
    t.ndim = static_cast<int>(owner->shape.size());
    t.dtype.code = kind == 'f' ? kDLFloat : (kind == 'i' ? kDLInt : kDLUInt);
    t.dtype.bits = static_cast<std::uint8_t>(8 * bytes);
    t.dtype.lanes = 1;
    t.shape = owner->shape.data();
    t.strides = owner->strides.data();
    t.byte_offset = 0;
    owner->tensor.manager_ctx = owner;
    owner->tensor.deleter = &deleteOwner;
    PyObject* capsule = PyCapsule_New(&owner->tensor, "dltensor", &capsuleDestructor);
    if (!capsule) {
        deleteOwner(&owner->tensor);
        throw py::error_already_set();
    }
    return py::reinterpret_steal<py::capsule>(capsule);
}

// A host copy of `bytes` at `address` (device memory when `device` >= 0), as bytes: the
// caller views them with the array's dtype (python/cellforge/_arrays.py).
py::array_t<std::uint8_t> copyToHost(std::uintptr_t address, int device, std::size_t bytes) {
    py::array_t<std::uint8_t> out(static_cast<py::ssize_t>(bytes));
    {
        py::gil_scoped_release release;
        copyViewToHost(reinterpret_cast<const void*>(address), out.mutable_data(), bytes,
                       device >= 0 ? MemorySpace::Device : MemorySpace::Host);
    }
    return out;
}

}  // namespace

py::list describeArrays(const std::vector<StateArray>& arrays) {
    py::list out;
    for (const StateArray& a : arrays)
        out.append(describe(a));
    return out;
}

void bindArrayFunctions(py::module_& m) {
    m.def("_dlpack_capsule", &dlpackCapsule, py::arg("address"), py::arg("device"),
          py::arg("typestr"), py::arg("shape"), py::arg("strides"), py::arg("keep_alive"),
          "A DLPack capsule (\"dltensor\") over memory the model owns; keeps `keep_alive` "
          "referenced until the consumer releases it.");
    m.def("_copy_to_host", &copyToHost, py::arg("address"), py::arg("device"), py::arg("bytes"),
          "A copy of `bytes` at `address` (device memory when device >= 0) as a uint8 array.");
}

}  // namespace cf::py_arrays
