// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/io/xdmf.hpp"

#include <algorithm>
#include <sstream>

#include "sim/io/series_writer.hpp"  // formatDouble

namespace cf::io {

namespace {

std::string escapeXml(const std::string& text) {
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        switch (c) {
            case '&':
                out += "&amp;";
                break;
            case '<':
                out += "&lt;";
                break;
            case '>':
                out += "&gt;";
                break;
            case '"':
                out += "&quot;";
                break;
            case '\'':
                out += "&apos;";
                break;
            default:
                out += c;
        }
    }
    return out;
}

// NumberType and Precision attributes of a DataItem.
std::string numberType(ScalarType t) {
    switch (t) {
        case ScalarType::F32:
            return R"(NumberType="Float" Precision="4")";
        case ScalarType::F64:
            return R"(NumberType="Float" Precision="8")";
        case ScalarType::I32:
            return R"(NumberType="Int" Precision="4")";
        case ScalarType::U32:
            return R"(NumberType="UInt" Precision="4")";
        case ScalarType::U64:
            return R"(NumberType="UInt" Precision="8")";
        case ScalarType::U8:
            return R"(NumberType="UChar" Precision="1")";
    }
    return {};
}

// The DataItem's Dimensions equal the dataset's shape exactly ([count] or
// [count, components]); ParaView takes the tuple layout from the AttributeType.
std::string dimensions(const XdmfEntry::FieldInfo& f) {
    std::string d = std::to_string(f.count);
    if (f.components != 1) d += " " + std::to_string(f.components);
    return d;
}

std::string attributeType(int components) {
    switch (components) {
        case 1:
            return "Scalar";
        case 3:
            return "Vector";
        case 6:
            return "Tensor6";
        case 9:
            return "Tensor";
        default:
            return "Matrix";
    }
}

void dataItem(std::ostream& out, const std::string& indent, const XdmfEntry& e,
              const XdmfEntry::FieldInfo& f) {
    out << indent << "<DataItem Dimensions=\"" << dimensions(f) << "\" " << numberType(f.type)
        << " Format=\"HDF\">" << escapeXml(e.file) << ":/" << escapeXml(f.name) << "</DataItem>\n";
}

void attribute(std::ostream& out, const std::string& indent, const XdmfEntry& e,
               const XdmfEntry::FieldInfo& f, const char* center) {
    out << indent << "<Attribute Name=\"" << escapeXml(f.name) << "\" AttributeType=\""
        << attributeType(f.components) << "\" Center=\"" << center << "\">\n";
    dataItem(out, indent + "  ", e, f);
    out << indent << "</Attribute>\n";
}

const XdmfEntry::FieldInfo* positionsOf(const XdmfEntry& e) {
    for (const auto& f : e.fields)
        if (f.role == FieldRole::Positions && (f.components == 2 || f.components == 3) &&
            f.count > 0 && (f.type == ScalarType::F32 || f.type == ScalarType::F64))
            return &f;
    return nullptr;
}

std::size_t cellsOf(const XdmfEntry& e) {
    std::size_t n = 1;
    for (std::size_t d : e.gridDims)
        n *= std::max<std::size_t>(d, 1);
    return n;
}

bool hasGrid(const XdmfEntry& e) {
    if (e.gridDims[0] == 0) return false;
    const std::size_t cells = cellsOf(e);
    return std::any_of(e.fields.begin(), e.fields.end(), [&](const auto& f) {
        return f.role == FieldRole::Grid && f.count == cells;
    });
}

void particleGrid(std::ostream& out, const std::string& indent, const XdmfEntry& e,
                  const XdmfEntry::FieldInfo& pos, bool withTime) {
    out << indent << "<Grid Name=\"particles\" GridType=\"Uniform\">\n";
    const std::string in = indent + "  ";
    if (withTime) out << in << "<Time Value=\"" << formatDouble(e.time) << "\"/>\n";
    // One vertex cell per entity; the connectivity is implicit (node i is cell i).
    out << in << "<Topology TopologyType=\"Polyvertex\" NumberOfElements=\"" << pos.count
        << "\" NodesPerElement=\"1\"/>\n";
    out << in << "<Geometry GeometryType=\"" << (pos.components == 3 ? "XYZ" : "XY") << "\">\n";
    dataItem(out, in + "  ", e, pos);
    out << in << "</Geometry>\n";
    for (const auto& f : e.fields)
        if (f.role == FieldRole::PerEntity && f.count == pos.count)
            attribute(out, in, e, f, "Node");
    out << indent << "</Grid>\n";
}

void meshGrid(std::ostream& out, const std::string& indent, const XdmfEntry& e, bool withTime) {
    std::size_t dims[3];
    double spacing[3];
    for (int i = 0; i < 3; ++i) {
        dims[i] = std::max<std::size_t>(e.gridDims[i], 1);
        spacing[i] = (e.boxHi[i] - e.boxLo[i]) / static_cast<double>(dims[i]);
    }
    const std::string in = indent + "  ";
    out << indent << "<Grid Name=\"grid\" GridType=\"Uniform\">\n";
    if (withTime) out << in << "<Time Value=\"" << formatDouble(e.time) << "\"/>\n";
    // XDMF lists structured dimensions, origin and spacing slowest axis first (z, y, x).
    // The values live on cells, so the mesh has one more point than cells per axis.
    out << in << "<Topology TopologyType=\"3DCoRectMesh\" Dimensions=\"" << dims[2] + 1 << " "
        << dims[1] + 1 << " " << dims[0] + 1 << "\"/>\n";
    out << in << "<Geometry GeometryType=\"ORIGIN_DXDYDZ\">\n";
    out << in << "  <DataItem Name=\"Origin\" Dimensions=\"3\" NumberType=\"Float\" "
        << "Precision=\"8\" Format=\"XML\">" << formatDouble(e.boxLo[2]) << " "
        << formatDouble(e.boxLo[1]) << " " << formatDouble(e.boxLo[0]) << "</DataItem>\n";
    out << in << "  <DataItem Name=\"Spacing\" Dimensions=\"3\" NumberType=\"Float\" "
        << "Precision=\"8\" Format=\"XML\">" << formatDouble(spacing[2]) << " "
        << formatDouble(spacing[1]) << " " << formatDouble(spacing[0]) << "</DataItem>\n";
    out << in << "</Geometry>\n";
    const std::size_t cells = cellsOf(e);
    for (const auto& f : e.fields)
        if (f.role == FieldRole::Grid && f.count == cells) attribute(out, in, e, f, "Cell");
    out << indent << "</Grid>\n";
}

}  // namespace

XdmfEntry XdmfEntry::describe(const Snapshot& s, std::string file) {
    XdmfEntry e;
    e.file = std::move(file);
    e.step = s.step;
    e.time = s.time;
    for (int i = 0; i < 3; ++i) {
        e.boxLo[i] = s.boxLo[i];
        e.boxHi[i] = s.boxHi[i];
        e.gridDims[i] = s.gridDims[i];
    }
    for (const Field& f : s.fields)
        if (f.role != FieldRole::RestartOnly)  // not in the snapshot file
            e.fields.push_back({f.name, f.type, f.role, f.count, f.components});
    return e;
}

std::string xdmfDocument(const std::string& collectionName, const std::vector<XdmfEntry>& entries) {
    std::ostringstream out;
    out << "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
        << "<!DOCTYPE Xdmf SYSTEM \"Xdmf.dtd\" []>\n"
        << "<Xdmf Version=\"3.0\" xmlns:xi=\"http://www.w3.org/2001/XInclude\">\n"
        << "  <Domain>\n"
        << "    <Grid Name=\"" << escapeXml(collectionName)
        << "\" GridType=\"Collection\" CollectionType=\"Temporal\">\n";
    const std::string in = "      ";
    for (const XdmfEntry& e : entries) {
        const XdmfEntry::FieldInfo* pos = positionsOf(e);
        const bool grid = hasGrid(e);
        if (pos != nullptr && grid) {
            // Particles and a mesh at the same time: a spatial collection carries the time.
            out << in << "<Grid Name=\"step " << e.step
                << "\" GridType=\"Collection\" CollectionType=\"Spatial\">\n"
                << in << "  <Time Value=\"" << formatDouble(e.time) << "\"/>\n";
            particleGrid(out, in + "  ", e, *pos, false);
            meshGrid(out, in + "  ", e, false);
            out << in << "</Grid>\n";
        } else if (pos != nullptr) {
            particleGrid(out, in, e, *pos, true);
        } else if (grid) {
            meshGrid(out, in, e, true);
        }
    }
    out << "    </Grid>\n  </Domain>\n</Xdmf>\n";
    return out.str();
}

}  // namespace cf::io
