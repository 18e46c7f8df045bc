// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/io/checkpoint.hpp"

#include <array>
#include <bit>
#include <cstring>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <system_error>

#include "sim/core/input_file.hpp"
#include "sim/io/atomic_file.hpp"
#include "sim/io/json_values.hpp"

namespace cf::io {

namespace fs = std::filesystem;
using detail::where;
using nlohmann::json;

// Field bytes are stored in host order; every platform Cellforge runs on (x86-64,
// aarch64, with NVIDIA GPUs) is little-endian, and the header says so for safety.
static_assert(std::endian::native == std::endian::little,
              "checkpoint field bytes assume a little-endian host");

namespace {

constexpr std::array<char, 8> kMagic = {'C', 'F', 'C', 'H', 'K', '0', '0', '1'};
constexpr std::size_t kPreambleSize = 16;  // magic + header length
// A header is a few kilobytes; anything near this is a corrupt length, not a header.
constexpr std::uint64_t kMaxHeaderSize = 256u << 20;

std::string hex64(std::uint64_t v) {
    char buf[20];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
    return buf;
}

// Reads the header with messages that name the file and the key.
class HeaderReader {
public:
    HeaderReader(const fs::path& file) : file_(file) {}

    // A checkpoint is read because the user names it (to resume, to load): what is wrong
    // with it is bad input.
    [[noreturn]] void fail(const std::string& what) const {
        throw InputFileError(where(file_, what));
    }

    const json& member(const json& obj, const char* key, const std::string& context) const {
        if (!obj.is_object()) fail(context + " is not a JSON object");
        const auto it = obj.find(key);
        if (it == obj.end()) fail(context + " lacks '" + key + "'");
        return *it;
    }
    std::string string(const json& obj, const char* key, const std::string& context) const {
        const json& j = member(obj, key, context);
        if (!j.is_string()) fail(context + "." + key + " is not a string");
        return j.get<std::string>();
    }
    std::uint64_t unsignedInt(const json& obj, const char* key, const std::string& context,
                              std::uint64_t max = std::numeric_limits<std::uint64_t>::max()) const {
        const json& j = member(obj, key, context);
        if (!j.is_number_unsigned() || j.get<std::uint64_t>() > max)
            fail(context + "." + key + " is not an integer in [0, " + std::to_string(max) + "]");
        return j.get<std::uint64_t>();
    }
    double real(const json& obj, const char* key, const std::string& context) const {
        return detail::doubleFromJson(member(obj, key, context), file_, context + "." + key);
    }
    bool boolean(const json& obj, const char* key, const std::string& context) const {
        const json& j = member(obj, key, context);
        if (!j.is_boolean()) fail(context + "." + key + " is not a boolean");
        return j.get<bool>();
    }
    template <std::size_t N, typename F>
    void triple(const json& obj, const char* key, const std::string& context, F&& each) const {
        const json& j = member(obj, key, context);
        if (!j.is_array() || j.size() != N) fail(context + "." + key + " is not an array of 3");
        for (std::size_t i = 0; i < N; ++i)
            each(i, j[i]);
    }

    const fs::path& file() const { return file_; }

private:
    const fs::path& file_;
};

ScalarType parseType(const HeaderReader& r, const std::string& text, const std::string& field) {
    for (ScalarType t : {ScalarType::F32, ScalarType::F64, ScalarType::I32, ScalarType::U32,
                         ScalarType::U64, ScalarType::U8})
        if (text == toString(t)) return t;
    r.fail("field '" + field + "' has unknown type '" + text + "'");
}

FieldRole parseRole(const HeaderReader& r, const std::string& text, const std::string& field) {
    for (FieldRole role : {FieldRole::Positions, FieldRole::PerEntity, FieldRole::Grid,
                           FieldRole::Internal, FieldRole::RestartOnly})
        if (text == toString(role)) return role;
    r.fail("field '" + field + "' has unknown role '" + text + "'");
}

void readParameters(const HeaderReader& r, const json& params, ParamSet& out) {
    if (!params.is_object()) r.fail("'parameters' is not a JSON object");
    // Every declared parameter must be present: a default silently standing in for a
    // missing value would break the bit-identical restart.
    for (const ParamSpec& s : out.table().specs()) {
        const auto g = params.find(s.group);
        if (g == params.end() || !g->is_object() || !g->contains(s.name))
            r.fail("parameter '" + s.key() +
                   "' is missing (was the checkpoint written by a "
                   "different version of the model?)");
        const json& j = (*g)[s.name];
        ParamValue v;
        switch (s.type) {
            case ParamType::Real:
                if (!j.is_number()) r.fail("parameter '" + s.key() + "' is not a number");
                v = j.is_number_float() ? j.get<double>()
                                        : static_cast<double>(j.get<std::int64_t>());
                break;
            case ParamType::Integer:
                if (!j.is_number_integer()) r.fail("parameter '" + s.key() + "' is not an integer");
                v = detail::paramValueFromJson(j, r.file(), "parameter '" + s.key() + "'");
                break;
            case ParamType::Boolean:
                if (!j.is_boolean()) r.fail("parameter '" + s.key() + "' is not a boolean");
                v = j.get<bool>();
                break;
            case ParamType::Choice:
            case ParamType::Text:
                if (!j.is_string()) r.fail("parameter '" + s.key() + "' is not a string");
                v = j.get<std::string>();
                break;
        }
        try {
            out.set(s.key(), v);
        } catch (const ParameterError& e) {
            r.fail(e.what());
        }
    }
    for (const auto& [group, names] : params.items()) {
        if (!names.is_object()) r.fail("parameter group '" + group + "' is not a JSON object");
        for (const auto& [name, value] : names.items())
            if (out.table().find(group + "." + name) == nullptr)
                r.fail("unknown parameter '" + group + "." + name + "' for this model");
    }
}

std::vector<ParamChange> readHistory(const HeaderReader& r, const json& history) {
    if (!history.is_array()) r.fail("'history' is not a JSON array");
    std::vector<ParamChange> out;
    for (std::size_t i = 0; i < history.size(); ++i) {
        const json& h = history[i];
        const std::string ctx = "history[" + std::to_string(i) + "]";
        ParamChange c;
        c.step = r.unsignedInt(h, "step", ctx);
        c.time = r.real(h, "time", ctx);
        c.key = r.string(h, "parameter", ctx);
        c.oldValue = detail::paramValueFromJson(r.member(h, "old", ctx), r.file(), ctx + ".old");
        c.newValue = detail::paramValueFromJson(r.member(h, "new", ctx), r.file(), ctx + ".new");
        c.pendingReset = r.boolean(h, "pending_reset", ctx);
        out.push_back(std::move(c));
    }
    return out;
}

}  // namespace

std::uint64_t fnv1a64(const void* data, std::size_t size) {
    const auto* p = static_cast<const unsigned char*>(data);
    std::uint64_t h = 0xcbf29ce484222325ull;
    for (std::size_t i = 0; i < size; ++i) {
        h ^= p[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

void writeCheckpoint(const fs::path& path, const Checkpoint& c) {
    const Snapshot& s = c.state;
    json header;
    header["format"] = "cellforge-checkpoint";
    header["byte_order"] = "little";
    header["model"] = c.model;
    header["seed"] = c.seed;
    header["backend"] = std::string(toString(c.backend));
    header["parameters"] = detail::parametersToJson(c.parameters);
    header["history"] = detail::historyToJson(c.history);
    header["step"] = s.step;
    header["time"] = detail::doubleToJson(s.time);
    header["time_unit"] = s.timeUnit;
    header["box_lo"] = json::array();
    header["box_hi"] = json::array();
    header["grid_dims"] = json::array();
    for (int i = 0; i < 3; ++i) {
        header["box_lo"].push_back(detail::doubleToJson(s.boxLo[i]));
        header["box_hi"].push_back(detail::doubleToJson(s.boxHi[i]));
        header["grid_dims"].push_back(static_cast<std::uint64_t>(s.gridDims[i]));
    }
    json fields = json::array();
    std::uint64_t offset = 0;
    for (const Field& f : s.fields) {
        const std::uint64_t expected = static_cast<std::uint64_t>(f.count) *
                                       static_cast<std::uint64_t>(f.components) * sizeOf(f.type);
        if (f.components <= 0 || expected != f.bytes.size())
            throw IoError(where(path, "field '" + f.name + "' holds " +
                                          std::to_string(f.bytes.size()) + " bytes, expected " +
                                          std::to_string(f.count) + " x " +
                                          std::to_string(f.components) + " " + toString(f.type)));
        fields.push_back({{"name", f.name},
                          {"unit", f.unit},
                          {"type", toString(f.type)},
                          {"role", toString(f.role)},
                          {"count", static_cast<std::uint64_t>(f.count)},
                          {"components", f.components},
                          {"offset", offset},
                          {"size", static_cast<std::uint64_t>(f.bytes.size())},
                          {"fnv1a64", hex64(fnv1a64(f.bytes.data(), f.bytes.size()))}});
        offset += f.bytes.size();
    }
    header["fields"] = std::move(fields);
    std::string text;
    try {
        text = header.dump(1);
    } catch (const json::exception& e) {
        // Only invalid UTF-8 in a name, unit or string parameter makes dump fail.
        throw IoError(where(path, std::string("cannot encode the checkpoint header: ") + e.what()));
    }

    detail::writeAtomically(path, [&](std::ostream& out) {
        out.write(kMagic.data(), kMagic.size());
        unsigned char len[8];
        const std::uint64_t n = text.size();
        for (int i = 0; i < 8; ++i)
            len[i] = static_cast<unsigned char>(n >> (8 * i));
        out.write(reinterpret_cast<const char*>(len), sizeof len);
        out.write(text.data(), static_cast<std::streamsize>(text.size()));
        for (const Field& f : s.fields)
            out.write(reinterpret_cast<const char*>(f.bytes.data()),
                      static_cast<std::streamsize>(f.bytes.size()));
    });
}

namespace {

Checkpoint readCheckpointFile(const fs::path& path, const ModelRegistry& registry) {
    const HeaderReader r(path);
    if (const auto problem = inputFileProblem(path)) r.fail(*problem);  // "no such file", ...
    std::error_code ec;
    const std::uintmax_t fileSize = fs::file_size(path, ec);
    if (ec) r.fail("cannot read checkpoint: " + ec.message());
    std::ifstream in(path, std::ios::binary);
    if (!in) r.fail("cannot open checkpoint for reading");

    char preamble[kPreambleSize];
    if (fileSize < kPreambleSize || !in.read(preamble, kPreambleSize))
        r.fail("truncated checkpoint (" + std::to_string(fileSize) + " bytes, no header)");
    if (std::memcmp(preamble, kMagic.data(), kMagic.size()) != 0)
        r.fail("not a Cellforge checkpoint (bad magic; expected CFCHK001)");
    std::uint64_t headerSize = 0;
    for (int i = 0; i < 8; ++i)
        headerSize |= static_cast<std::uint64_t>(static_cast<unsigned char>(preamble[8 + i]))
                      << (8 * i);
    if (headerSize > kMaxHeaderSize || headerSize > fileSize - kPreambleSize)
        r.fail("truncated checkpoint (header of " + std::to_string(headerSize) +
               " bytes does not fit in the file of " + std::to_string(fileSize) + " bytes)");
    std::string text(headerSize, '\0');
    if (!in.read(text.data(), static_cast<std::streamsize>(headerSize)))
        r.fail("truncated checkpoint (cannot read the header)");
    json h;
    try {
        h = json::parse(text);
    } catch (const json::exception& e) {
        r.fail(std::string("corrupt checkpoint header: ") + e.what());
    }
    const std::string top = "header";
    if (r.string(h, "format", top) != "cellforge-checkpoint")
        r.fail("header format is not 'cellforge-checkpoint'");
    if (r.string(h, "byte_order", top) != "little") r.fail("unsupported byte order");

    const std::string model = r.string(h, "model", top);
    const ModelDescriptor* desc = registry.find(model);
    if (desc == nullptr) {
        try {
            registry.at(model);
        } catch (const Error& e) {
            r.fail(e.what());
        }
        r.fail("unknown model '" + model + "'");
    }
    if (desc->parameters == nullptr) r.fail("model '" + model + "' declares no parameter table");

    const std::string backendText = r.string(h, "backend", top);
    const std::optional<Backend> backend = parseBackend(backendText);
    if (!backend) r.fail("unknown backend '" + backendText + "'");

    Checkpoint c{model,
                 static_cast<std::uint32_t>(
                     r.unsignedInt(h, "seed", top, std::numeric_limits<std::uint32_t>::max())),
                 *backend,
                 ParamSet(desc->parameters()),
                 {},
                 {}};
    readParameters(r, r.member(h, "parameters", top), c.parameters);
    c.history = readHistory(r, r.member(h, "history", top));

    Snapshot& s = c.state;
    s.step = r.unsignedInt(h, "step", top);
    s.time = r.real(h, "time", top);
    s.timeUnit = r.string(h, "time_unit", top);
    r.triple<3>(h, "box_lo", top, [&](std::size_t i, const json& j) {
        s.boxLo[i] = detail::doubleFromJson(j, path, "box_lo");
    });
    r.triple<3>(h, "box_hi", top, [&](std::size_t i, const json& j) {
        s.boxHi[i] = detail::doubleFromJson(j, path, "box_hi");
    });
    r.triple<3>(h, "grid_dims", top, [&](std::size_t i, const json& j) {
        if (!j.is_number_unsigned()) r.fail("grid_dims holds a non-integer");
        s.gridDims[i] = j.get<std::size_t>();
    });

    const json& fields = r.member(h, "fields", top);
    if (!fields.is_array()) r.fail("'fields' is not a JSON array");
    const std::uint64_t dataStart = kPreambleSize + headerSize;
    const std::uint64_t dataSize = fileSize - dataStart;
    std::uint64_t expectedOffset = 0;
    for (std::size_t i = 0; i < fields.size(); ++i) {
        const json& fj = fields[i];
        const std::string ctx = "fields[" + std::to_string(i) + "]";
        Field f;
        f.name = r.string(fj, "name", ctx);
        const std::string fctx = "field '" + f.name + "'";
        f.unit = r.string(fj, "unit", fctx);
        f.type = parseType(r, r.string(fj, "type", fctx), f.name);
        f.role = parseRole(r, r.string(fj, "role", fctx), f.name);
        f.count = r.unsignedInt(fj, "count", fctx);
        f.components = static_cast<int>(r.unsignedInt(fj, "components", fctx, 1u << 20));
        const std::uint64_t offset = r.unsignedInt(fj, "offset", fctx);
        const std::uint64_t size = r.unsignedInt(fj, "size", fctx);
        const std::string checksum = r.string(fj, "fnv1a64", fctx);
        const std::uint64_t perTuple = static_cast<std::uint64_t>(f.components) * sizeOf(f.type);
        if (f.components == 0 || (f.count != 0 && size / f.count != perTuple) ||
            size != f.count * perTuple)
            r.fail(fctx + ": size " + std::to_string(size) + " does not match " +
                   std::to_string(f.count) + " x " + std::to_string(f.components) + " " +
                   toString(f.type));
        if (offset != expectedOffset) r.fail(fctx + ": unexpected byte offset");
        if (size > dataSize || offset > dataSize - size)
            r.fail("truncated checkpoint: " + fctx + " extends past the end of the file");
        f.bytes.resize(size);
        in.seekg(static_cast<std::streamoff>(dataStart + offset));
        if (!in.read(reinterpret_cast<char*>(f.bytes.data()), static_cast<std::streamsize>(size)))
            r.fail("truncated checkpoint: cannot read " + fctx);
        if (hex64(fnv1a64(f.bytes.data(), f.bytes.size())) != checksum)
            r.fail("checksum mismatch in " + fctx + " (the file is corrupt)");
        expectedOffset += size;
        s.fields.push_back(std::move(f));
    }
    if (expectedOffset != dataSize)
        r.fail(std::to_string(dataSize - expectedOffset) +
               " unexpected bytes after the last field");
    return c;
}

}  // namespace

Checkpoint readCheckpoint(const fs::path& path, const ModelRegistry& registry) {
    try {
        return readCheckpointFile(path, registry);
    } catch (const IoError& e) {  // a value in the header (json_values.hpp) names the file
        throw InputFileError(e.what());
    }
}

}  // namespace cf::io
