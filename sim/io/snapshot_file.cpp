// SPDX-License-Identifier: GPL-3.0-or-later
// One snapshot file through the HDF5 C API (snapshot_file.hpp), shared by SnapshotWriter and
// PieceSnapshotWriter.
#include "sim/io/snapshot_file.hpp"

#include <cstdint>
#include <cstdio>
#include <ostream>
#include <vector>

#include "sim/core/errors.hpp"
#include "sim/io/atomic_file.hpp"
#include "sim/io/snapshot_writer.hpp"
#include "sim/io/xdmf.hpp"

#if CELLFORGE_HAVE_HDF5
#include <hdf5.h>
#endif

namespace cf::io {

namespace fs = std::filesystem;

namespace detail {

std::string snapshotStem(const std::string& model, std::uint64_t step) {
    char digits[32];
    std::snprintf(digits, sizeof digits, "%09llu", static_cast<unsigned long long>(step));
    return model + "_" + digits;
}

void checkModelName(const fs::path& dir, const std::string& model) {
    if (model.empty() || model.find_first_of("/\\") != std::string::npos)
        throw IoError(where(dir, "model name '" + model + "' cannot name a snapshot file"));
}

}  // namespace detail

#if !CELLFORGE_HAVE_HDF5

bool hdf5Available() {
    return false;
}

namespace detail {

void writeSnapshotFile(const fs::path& path, const std::string&, const Snapshot&, std::size_t,
                       const PieceAttributes*) {
    throw IoError(where(path, "this build has no HDF5 support (configure with CELLFORGE_HDF5=ON)"));
}

SnapshotFile readSnapshotFile(const fs::path& h5, bool) {
    throw IoError(where(h5, "this build has no HDF5 support (configure with CELLFORGE_HDF5=ON)"));
}

bool holdsDataset(const fs::path&, const char*) {
    return false;
}

}  // namespace detail

#else

using detail::where;

namespace {

// Owns one HDF5 identifier and closes it with the matching H5?close.
class Handle {
public:
    using Closer = herr_t (*)(hid_t);
    Handle() = default;
    Handle(hid_t id, Closer close) : id_(id), close_(close) {}
    Handle(const Handle&) = delete;
    Handle& operator=(const Handle&) = delete;
    Handle(Handle&& o) noexcept : id_(o.id_), close_(o.close_) { o.id_ = H5I_INVALID_HID; }
    Handle& operator=(Handle&& o) noexcept {
        if (this != &o) {
            reset();
            id_ = o.id_;
            close_ = o.close_;
            o.id_ = H5I_INVALID_HID;
        }
        return *this;
    }
    ~Handle() { reset(); }
    hid_t get() const { return id_; }
    void reset() {
        if (id_ >= 0 && close_ != nullptr) close_(id_);
        id_ = H5I_INVALID_HID;
    }

private:
    hid_t id_ = H5I_INVALID_HID;
    Closer close_ = nullptr;
};

// The most specific message on HDF5's error stack ("unable to open file", ...).
std::string hdf5Reason() {
    std::string reason;
    H5Ewalk2(
        H5E_DEFAULT, H5E_WALK_UPWARD,
        [](unsigned, const H5E_error2_t* err, void* data) -> herr_t {
            auto* out = static_cast<std::string*>(data);
            if (out->empty() && err->desc != nullptr) *out = err->desc;
            return 0;
        },
        &reason);
    H5Eclear2(H5E_DEFAULT);
    return reason.empty() ? "HDF5 error" : reason;
}

// Library code never prints: HDF5's default handler would write its stack to stderr.
void silenceHdf5() {
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
}

// Each call site names the file and, where there is one, the dataset or attribute.
class Ctx {
public:
    explicit Ctx(const fs::path& file) : file_(file) {}
    [[noreturn]] void fail(const std::string& what) const {
        throw IoError(where(file_, what + ": " + hdf5Reason()));
    }
    // For contents that HDF5 read fine but that are not what a snapshot holds.
    [[noreturn]] void invalid(const std::string& what) const {
        H5Eclear2(H5E_DEFAULT);
        throw IoError(where(file_, what));
    }
    Handle check(hid_t id, Handle::Closer close, const std::string& what) const {
        if (id < 0) fail(what);
        return Handle(id, close);
    }
    void check(herr_t status, const std::string& what) const {
        if (status < 0) fail(what);
    }

private:
    const fs::path& file_;
};

hid_t nativeType(ScalarType t) {
    switch (t) {
        case ScalarType::F32:
            return H5T_NATIVE_FLOAT;
        case ScalarType::F64:
            return H5T_NATIVE_DOUBLE;
        case ScalarType::I32:
            return H5T_NATIVE_INT32;
        case ScalarType::U32:
            return H5T_NATIVE_UINT32;
        case ScalarType::U64:
            return H5T_NATIVE_UINT64;
        case ScalarType::U8:
            return H5T_NATIVE_UINT8;
    }
    return H5T_NATIVE_UINT8;
}

void writeAttribute(const Ctx& c, hid_t obj, const char* name, hid_t type, const hsize_t* dims,
                    int rank, const void* data, const std::string& owner) {
    const std::string what = "attribute '" + std::string(name) + "' of " + owner;
    Handle space = c.check(
        rank == 0 ? H5Screate(H5S_SCALAR) : H5Screate_simple(rank, dims, nullptr), H5Sclose, what);
    Handle attr = c.check(H5Acreate2(obj, name, type, space.get(), H5P_DEFAULT, H5P_DEFAULT),
                          H5Aclose, "cannot create " + what);
    c.check(H5Awrite(attr.get(), type, data), "cannot write " + what);
}

void writeStringAttribute(const Ctx& c, hid_t obj, const char* name, const std::string& value,
                          const std::string& owner) {
    // Fixed-length, NUL-terminated: readable by h5py, ParaView and h5dump alike.
    Handle type = c.check(H5Tcopy(H5T_C_S1), H5Tclose, "string type");
    c.check(H5Tset_size(type.get(), value.size() + 1), "string type size");
    c.check(H5Tset_strpad(type.get(), H5T_STR_NULLTERM), "string padding");
    writeAttribute(c, obj, name, type.get(), nullptr, 0, value.c_str(), owner);
}

// kVertexDataset: 0, 1, ..., count - 1 (see xdmf.hpp).
void writeVertexDataset(const Ctx& c, hid_t root, std::size_t count) {
    const std::string ds = std::string("dataset '") + kVertexDataset + "'";
    Handle lcpl = c.check(H5Pcreate(H5P_LINK_CREATE), H5Pclose, "link creation properties");
    c.check(H5Pset_create_intermediate_group(lcpl.get(), 1), "intermediate groups");
    const bool wide = count > static_cast<std::size_t>(INT32_MAX);
    const hid_t type = wide ? H5T_NATIVE_INT64 : H5T_NATIVE_INT32;
    const hsize_t shape[1] = {count};
    Handle space = c.check(H5Screate_simple(1, shape, nullptr), H5Sclose, ds + " dataspace");
    Handle dset = c.check(
        H5Dcreate2(root, kVertexDataset, type, space.get(), lcpl.get(), H5P_DEFAULT, H5P_DEFAULT),
        H5Dclose, "cannot create " + ds);
    herr_t status = 0;
    if (wide) {
        std::vector<std::int64_t> ids(count);
        for (std::size_t i = 0; i < count; ++i)
            ids[i] = static_cast<std::int64_t>(i);
        status = H5Dwrite(dset.get(), type, H5S_ALL, H5S_ALL, H5P_DEFAULT, ids.data());
    } else {
        std::vector<std::int32_t> ids(count);
        for (std::size_t i = 0; i < count; ++i)
            ids[i] = static_cast<std::int32_t>(i);
        status = H5Dwrite(dset.get(), type, H5S_ALL, H5S_ALL, H5P_DEFAULT, ids.data());
    }
    c.check(status, "cannot write " + ds);
}

// The bytes of the snapshot file for `path` (named in errors), built in memory by HDF5's
// core driver; the caller writes them. HDF5 1.10 cannot close a file whose metadata it
// failed to flush (a full disk), and its exit handler then crashed the process.
std::vector<char> fileImage(const fs::path& path, const std::string& model, const Snapshot& s,
                            std::size_t vertices, const detail::PieceAttributes* piece) {
    const Ctx c(path);
    // Track link creation order so readSnapshot returns the fields in their written order.
    Handle fcpl = c.check(H5Pcreate(H5P_FILE_CREATE), H5Pclose, "file creation properties");
    c.check(H5Pset_link_creation_order(fcpl.get(), H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED),
            "link creation order");
    // Memory grows in steps of about the whole file, so it is (re)allocated once or twice.
    std::size_t bytes = vertices * sizeof(std::int64_t) + (std::size_t{1} << 20);
    for (const Field& f : s.fields)
        bytes += f.bytes.size();
    Handle fapl = c.check(H5Pcreate(H5P_FILE_ACCESS), H5Pclose, "file access properties");
    c.check(H5Pset_fapl_core(fapl.get(), bytes, 0), "in-memory file");
    Handle file = c.check(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, fcpl.get(), fapl.get()), H5Fclose,
                          "cannot create HDF5 file");
    const hid_t root = file.get();
    const hsize_t three = 3;
    const std::uint64_t dims[3] = {s.gridDims[0], s.gridDims[1], s.gridDims[2]};
    writeStringAttribute(c, root, "model", model, "/");
    writeAttribute(c, root, "step", H5T_NATIVE_UINT64, nullptr, 0, &s.step, "/");
    writeAttribute(c, root, "time", H5T_NATIVE_DOUBLE, nullptr, 0, &s.time, "/");
    writeStringAttribute(c, root, "time_unit", s.timeUnit, "/");
    writeAttribute(c, root, "box_lo", H5T_NATIVE_DOUBLE, &three, 1, s.boxLo, "/");
    writeAttribute(c, root, "box_hi", H5T_NATIVE_DOUBLE, &three, 1, s.boxHi, "/");
    writeAttribute(c, root, "grid_dims", H5T_NATIVE_UINT64, &three, 1, dims, "/");
    if (piece != nullptr) {
        writeAttribute(c, root, "piece_offset", H5T_NATIVE_UINT64, &three, 1, piece->offset, "/");
        writeAttribute(c, root, "global_dims", H5T_NATIVE_UINT64, &three, 1, piece->globalDims,
                       "/");
        writeAttribute(c, root, "rank", H5T_NATIVE_INT32, nullptr, 0, &piece->rank, "/");
        writeAttribute(c, root, "ranks", H5T_NATIVE_INT32, nullptr, 0, &piece->ranks, "/");
    }

    for (const Field& f : s.fields) {
        if (f.role == FieldRole::RestartOnly) continue;  // checkpoints hold it
        const std::string ds = "dataset '/" + f.name + "'";
        if (f.name.empty() || f.name.find('/') != std::string::npos || f.name == ".")
            throw IoError(where(path, "field name '" + f.name + "' cannot name a dataset"));
        if (f.components <= 0 ||
            f.count * static_cast<std::size_t>(f.components) * sizeOf(f.type) != f.bytes.size())
            throw IoError(where(path, ds + ": " + std::to_string(f.bytes.size()) +
                                          " bytes do not hold " + std::to_string(f.count) + " x " +
                                          std::to_string(f.components) + " " + toString(f.type)));
        const hsize_t shape[2] = {f.count, static_cast<hsize_t>(f.components)};
        Handle space = c.check(H5Screate_simple(f.components == 1 ? 1 : 2, shape, nullptr),
                               H5Sclose, ds + " dataspace");
        const hid_t type = nativeType(f.type);
        Handle dset = c.check(H5Dcreate2(root, f.name.c_str(), type, space.get(), H5P_DEFAULT,
                                         H5P_DEFAULT, H5P_DEFAULT),
                              H5Dclose, "cannot create " + ds);
        if (!f.bytes.empty())
            c.check(H5Dwrite(dset.get(), type, H5S_ALL, H5S_ALL, H5P_DEFAULT, f.bytes.data()),
                    "cannot write " + ds);
        writeStringAttribute(c, dset.get(), "unit", f.unit, ds);
        writeStringAttribute(c, dset.get(), "role", toString(f.role), ds);
    }
    if (vertices > 0) writeVertexDataset(c, root, vertices);
    c.check(H5Fflush(root, H5F_SCOPE_LOCAL), "cannot flush HDF5 file");
    const ssize_t size = H5Fget_file_image(root, nullptr, 0);
    if (size < 0) c.fail("cannot size the file image");
    std::vector<char> image(static_cast<std::size_t>(size));
    if (H5Fget_file_image(root, image.data(), image.size()) != size)
        c.fail("cannot copy the file image");
    return image;
}

std::string readStringAttribute(const Ctx& c, hid_t obj, const char* name,
                                const std::string& owner) {
    const std::string what = "attribute '" + std::string(name) + "' of " + owner;
    Handle attr = c.check(H5Aopen(obj, name, H5P_DEFAULT), H5Aclose, "missing " + what);
    Handle type = c.check(H5Aget_type(attr.get()), H5Tclose, what);
    if (H5Tget_class(type.get()) != H5T_STRING) c.invalid(what + " is not a string");
    if (H5Tis_variable_str(type.get()) > 0) {
        // Files written by other tools (h5py) use variable-length strings.
        Handle mem = c.check(H5Tcopy(H5T_C_S1), H5Tclose, what);
        c.check(H5Tset_size(mem.get(), H5T_VARIABLE), what);
        char* text = nullptr;
        c.check(H5Aread(attr.get(), mem.get(), &text), "cannot read " + what);
        std::string out = text != nullptr ? text : "";
        H5free_memory(text);
        return out;
    }
    const std::size_t size = H5Tget_size(type.get());
    std::string buf(size, '\0');
    c.check(H5Aread(attr.get(), type.get(), buf.data()), "cannot read " + what);
    return buf.substr(0, buf.find('\0'));
}

template <typename T>
void readAttribute(const Ctx& c, hid_t obj, const char* name, hid_t memType, T* out,
                   hssize_t expected, const std::string& owner) {
    const std::string what = "attribute '" + std::string(name) + "' of " + owner;
    Handle attr = c.check(H5Aopen(obj, name, H5P_DEFAULT), H5Aclose, "missing " + what);
    Handle space = c.check(H5Aget_space(attr.get()), H5Sclose, what);
    if (H5Sget_simple_extent_npoints(space.get()) != expected)
        c.invalid(what + " has " + std::to_string(H5Sget_simple_extent_npoints(space.get())) +
                  " values, expected " + std::to_string(expected));
    c.check(H5Aread(attr.get(), memType, out), "cannot read " + what);
}

ScalarType scalarTypeOfDataset(const Ctx& c, hid_t type, const std::string& ds) {
    const H5T_class_t cls = H5Tget_class(type);
    const std::size_t size = H5Tget_size(type);
    if (cls == H5T_FLOAT && size == 4) return ScalarType::F32;
    if (cls == H5T_FLOAT && size == 8) return ScalarType::F64;
    if (cls == H5T_INTEGER) {
        const bool isSigned = H5Tget_sign(type) == H5T_SGN_2;
        if (isSigned && size == 4) return ScalarType::I32;
        if (!isSigned && size == 4) return ScalarType::U32;
        if (!isSigned && size == 8) return ScalarType::U64;
        if (!isSigned && size == 1) return ScalarType::U8;
    }
    c.invalid(ds + " has an unsupported element type (" + std::to_string(size) + "-byte, class " +
              std::to_string(static_cast<int>(cls)) + ")");
}

FieldRole parseRole(const Ctx& c, const std::string& text, const std::string& ds) {
    for (FieldRole r :
         {FieldRole::Positions, FieldRole::PerEntity, FieldRole::Grid, FieldRole::Internal})
        if (text == toString(r)) return r;
    c.invalid(ds + " has unknown role '" + text + "'");
}

Field readField(const Ctx& c, hid_t root, const std::string& name, bool withData) {
    const std::string ds = "dataset '/" + name + "'";
    Handle dset = c.check(H5Dopen2(root, name.c_str(), H5P_DEFAULT), H5Dclose, "cannot open " + ds);
    Handle type = c.check(H5Dget_type(dset.get()), H5Tclose, ds + " type");
    Handle space = c.check(H5Dget_space(dset.get()), H5Sclose, ds + " dataspace");
    const int rank = H5Sget_simple_extent_ndims(space.get());
    if (rank != 1 && rank != 2)
        c.invalid(ds + " has rank " + std::to_string(rank) + ", not 1 or 2");
    hsize_t shape[2] = {0, 1};
    H5Sget_simple_extent_dims(space.get(), shape, nullptr);
    Field f;
    f.name = name;
    f.type = scalarTypeOfDataset(c, type.get(), ds);
    f.count = shape[0];
    f.components = static_cast<int>(rank == 2 ? shape[1] : 1);
    f.unit = readStringAttribute(c, dset.get(), "unit", ds);
    f.role = parseRole(c, readStringAttribute(c, dset.get(), "role", ds), ds);
    if (!withData) return f;
    f.bytes.resize(f.count * static_cast<std::size_t>(f.components) * sizeOf(f.type));
    if (!f.bytes.empty())
        c.check(
            H5Dread(dset.get(), nativeType(f.type), H5S_ALL, H5S_ALL, H5P_DEFAULT, f.bytes.data()),
            "cannot read " + ds);
    return f;
}

}  // namespace

bool hdf5Available() {
    return true;
}

namespace detail {

void writeSnapshotFile(const fs::path& path, const std::string& model, const Snapshot& snapshot,
                       std::size_t vertices, const PieceAttributes* piece) {
    silenceHdf5();
    const std::vector<char> image = fileImage(path, model, snapshot, vertices, piece);
    // Under a temporary name until complete, so the .xmf (or a later reader) never picks up
    // a broken file.
    writeAtomically(path, [&](std::ostream& out) {
        out.write(image.data(), static_cast<std::streamsize>(image.size()));
    });
}

SnapshotFile readSnapshotFile(const fs::path& h5, bool withData) {
    silenceHdf5();
    const Ctx c(h5);
    Handle file = c.check(H5Fopen(h5.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose,
                          "cannot open HDF5 file");
    const hid_t root = file.get();
    Snapshot s;
    std::uint64_t dims[3] = {0, 0, 0};
    readAttribute(c, root, "step", H5T_NATIVE_UINT64, &s.step, 1, "/");
    readAttribute(c, root, "time", H5T_NATIVE_DOUBLE, &s.time, 1, "/");
    s.timeUnit = readStringAttribute(c, root, "time_unit", "/");
    readAttribute(c, root, "box_lo", H5T_NATIVE_DOUBLE, s.boxLo, 3, "/");
    readAttribute(c, root, "box_hi", H5T_NATIVE_DOUBLE, s.boxHi, 3, "/");
    readAttribute(c, root, "grid_dims", H5T_NATIVE_UINT64, dims, 3, "/");
    for (int i = 0; i < 3; ++i)
        s.gridDims[i] = dims[i];

    H5G_info_t info;
    c.check(H5Gget_info(root, &info), "cannot list the root group");
    // Creation order when the file tracks it (ours do), else alphabetical.
    H5_index_t index = H5_INDEX_CRT_ORDER;
    {
        Handle group = c.check(H5Gopen2(root, "/", H5P_DEFAULT), H5Gclose, "cannot open '/'");
        Handle gcpl =
            c.check(H5Gget_create_plist(group.get()), H5Pclose, "group creation properties");
        unsigned flags = 0;
        if (H5Pget_link_creation_order(gcpl.get(), &flags) < 0 ||
            (flags & H5P_CRT_ORDER_INDEXED) == 0)
            index = H5_INDEX_NAME;
    }
    for (hsize_t i = 0; i < info.nlinks; ++i) {
        const ssize_t len =
            H5Lget_name_by_idx(root, ".", index, H5_ITER_INC, i, nullptr, 0, H5P_DEFAULT);
        if (len < 0) c.fail("cannot list dataset " + std::to_string(i));
        std::string name(static_cast<std::size_t>(len) + 1, '\0');
        H5Lget_name_by_idx(root, ".", index, H5_ITER_INC, i, name.data(), name.size(), H5P_DEFAULT);
        name.resize(static_cast<std::size_t>(len));
        // H5Oopen + H5Iget_type works on every HDF5 version (H5Oget_info changed its
        // signature in 1.12).
        {
            Handle obj = c.check(H5Oopen(root, name.c_str(), H5P_DEFAULT), H5Oclose,
                                 "cannot open '/" + name + "'");
            if (H5Iget_type(obj.get()) != H5I_DATASET) continue;
        }
        s.fields.push_back(readField(c, root, name, withData));
    }
    SnapshotFile out{std::move(s), std::nullopt};
    if (H5Aexists(root, "piece_offset") > 0) {
        PieceAttributes p;
        readAttribute(c, root, "piece_offset", H5T_NATIVE_UINT64, p.offset, 3, "/");
        readAttribute(c, root, "global_dims", H5T_NATIVE_UINT64, p.globalDims, 3, "/");
        readAttribute(c, root, "rank", H5T_NATIVE_INT32, &p.rank, 1, "/");
        readAttribute(c, root, "ranks", H5T_NATIVE_INT32, &p.ranks, 1, "/");
        out.piece = p;
    }
    H5Eclear2(H5E_DEFAULT);
    return out;
}

bool holdsDataset(const fs::path& h5, const char* name) {
    const Handle file(H5Fopen(h5.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
    bool found = file.get() >= 0;
    // H5Lexists fails on a path through a missing group, so each level is checked.
    const std::string path(name);
    for (std::size_t slash = 0; found && slash != std::string::npos;) {
        slash = path.find('/', slash + 1);
        found = H5Lexists(file.get(), path.substr(0, slash).c_str(), H5P_DEFAULT) > 0;
    }
    H5Eclear2(H5E_DEFAULT);
    return found;
}

}  // namespace detail

#endif

Snapshot readSnapshot(const fs::path& h5) {
    return detail::readSnapshotFile(h5, true).snapshot;
}

}  // namespace cf::io
