// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/io/xdmf.hpp"

#include <algorithm>
#include <cstdint>
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

// Particle DataItems state the dataset's shape ([count] or [count, components]); grid
// DataItems state the grid's (nz ny nx [components]) over the same values, which the
// legacy reader needs to read a cell attribute whole (see xdmf.hpp).
std::string dimensions(const XdmfEntry& e, const XdmfEntry::FieldInfo& f) {
    std::string d;
    if (f.role == FieldRole::Grid)
        d = std::to_string(std::max<std::size_t>(e.gridDims[2], 1)) + " " +
            std::to_string(std::max<std::size_t>(e.gridDims[1], 1)) + " " +
            std::to_string(std::max<std::size_t>(e.gridDims[0], 1));
    else
        d = std::to_string(f.count);
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
    out << indent << "<DataItem Dimensions=\"" << dimensions(e, f) << "\" " << numberType(f.type)
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
                  const XdmfEntry::FieldInfo& pos, const std::string& name) {
    out << indent << "<Grid Name=\"" << name << "\" GridType=\"Uniform\">\n";
    const std::string in = indent + "  ";
    out << in << "<Time Value=\"" << formatDouble(e.time) << "\"/>\n";
    // One vertex cell per entity, node i in cell i.
    out << in << "<Topology TopologyType=\"Polyvertex\" NumberOfElements=\"" << pos.count
        << "\" NodesPerElement=\"1\"";
    if (e.vertexDataset.empty()) {
        out << "/>\n";  // an older file: implicit connectivity, points without cells in Xdmf3
    } else {
        const bool wide = pos.count > static_cast<std::size_t>(INT32_MAX);
        out << ">\n"
            << in << "  <DataItem Dimensions=\"" << pos.count
            << "\" NumberType=\"Int\" Precision=\"" << (wide ? 8 : 4) << "\" Format=\"HDF\">"
            << escapeXml(e.file) << ":" << escapeXml(e.vertexDataset) << "</DataItem>\n"
            << in << "</Topology>\n";
    }
    out << in << "<Geometry GeometryType=\"" << (pos.components == 3 ? "XYZ" : "XY") << "\">\n";
    dataItem(out, in + "  ", e, pos);
    out << in << "</Geometry>\n";
    for (const auto& f : e.fields)
        if (f.role == FieldRole::PerEntity && f.count == pos.count)
            attribute(out, in, e, f, "Node");
    out << indent << "</Grid>\n";
}

void meshGrid(std::ostream& out, const std::string& indent, const XdmfEntry& e,
              const std::string& name) {
    std::size_t dims[3];
    double spacing[3];
    bool sheet = false;
    const bool piece = e.wholeDims[0] != 0 || e.wholeDims[1] != 0 || e.wholeDims[2] != 0;
    for (int i = 0; i < 3; ++i) {
        dims[i] = std::max<std::size_t>(e.gridDims[i], 1);
        spacing[i] = (e.boxHi[i] - e.boxLo[i]) / static_cast<double>(dims[i]);
        sheet = sheet || (piece ? e.wholeDims[i] : dims[i]) <= 1;
    }
    // A volume: the values live on cells, so the mesh has one more point than cells per
    // axis and starts at the box corner. A sheet: the values live on the points, which sit
    // at the cell centres (a flat axis has its one point on the sheet's mid-plane). A piece
    // of a sheet (a distributed run) keeps its values on cells, one cell thick, so that the
    // pieces meet edge to edge: points at the cell centres would leave a cell's gap
    // between neighbouring pieces.
    // (A "piece" that is the whole grid, on one rank, is laid out as a serial run's.)
    const bool split =
        piece && (e.wholeDims[0] != e.gridDims[0] || e.wholeDims[1] != e.gridDims[1] ||
                  e.wholeDims[2] != e.gridDims[2]);
    const bool onPoints = sheet && !split;
    double origin[3];
    std::size_t points[3];
    for (int i = 0; i < 3; ++i) {
        origin[i] = onPoints ? e.boxLo[i] + 0.5 * spacing[i] : e.boxLo[i];
        points[i] = onPoints ? dims[i] : dims[i] + 1;
    }
    const std::string in = indent + "  ";
    out << indent << "<Grid Name=\"" << name << "\" GridType=\"Uniform\">\n";
    out << in << "<Time Value=\"" << formatDouble(e.time) << "\"/>\n";
    // XDMF lists structured dimensions, origin and spacing slowest axis first (z, y, x).
    out << in << "<Topology TopologyType=\"3DCoRectMesh\" Dimensions=\"" << points[2] << " "
        << points[1] << " " << points[0] << "\"/>\n";
    out << in << "<Geometry GeometryType=\"ORIGIN_DXDYDZ\">\n";
    out << in << "  <DataItem Name=\"Origin\" Dimensions=\"3\" NumberType=\"Float\" "
        << "Precision=\"8\" Format=\"XML\">" << formatDouble(origin[2]) << " "
        << formatDouble(origin[1]) << " " << formatDouble(origin[0]) << "</DataItem>\n";
    out << in << "  <DataItem Name=\"Spacing\" Dimensions=\"3\" NumberType=\"Float\" "
        << "Precision=\"8\" Format=\"XML\">" << formatDouble(spacing[2]) << " "
        << formatDouble(spacing[1]) << " " << formatDouble(spacing[0]) << "</DataItem>\n";
    out << in << "</Geometry>\n";
    const std::size_t cells = cellsOf(e);
    for (const auto& f : e.fields)
        if (f.role == FieldRole::Grid && f.count == cells)
            attribute(out, in, e, f, onPoints ? "Node" : "Cell");
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
    if (xdmfParticleCount(e) > 0) e.vertexDataset = kVertexDataset;
    return e;
}

std::size_t xdmfParticleCount(const XdmfEntry& entry) {
    const XdmfEntry::FieldInfo* pos = positionsOf(entry);
    return pos != nullptr ? pos->count : 0;
}

bool holdsMesh(const XdmfEntry& entry, XdmfMesh mesh) {
    return mesh == XdmfMesh::Particles ? positionsOf(entry) != nullptr : hasGrid(entry);
}

namespace {

void uniformGrid(std::ostream& out, const std::string& indent, const XdmfEntry& e, XdmfMesh mesh,
                 const std::string& name) {
    if (mesh == XdmfMesh::Particles)
        particleGrid(out, indent, e, *positionsOf(e), name);
    else
        meshGrid(out, indent, e, name);
}

const char* meshName(XdmfMesh mesh) {
    return mesh == XdmfMesh::Particles ? "particles" : "grid";
}

void documentStart(std::ostream& out, const std::string& collectionName) {
    out << "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
        << "<!DOCTYPE Xdmf SYSTEM \"Xdmf.dtd\" []>\n"
        << "<Xdmf Version=\"3.0\" xmlns:xi=\"http://www.w3.org/2001/XInclude\">\n"
        << "  <Domain>\n"
        << "    <Grid Name=\"" << escapeXml(collectionName)
        << "\" GridType=\"Collection\" CollectionType=\"Temporal\">\n";
}

void documentEnd(std::ostream& out) {
    out << "    </Grid>\n  </Domain>\n</Xdmf>\n";
}

}  // namespace

std::string xdmfDocument(const std::string& collectionName, const std::vector<XdmfEntry>& entries,
                         XdmfMesh mesh) {
    std::ostringstream out;
    documentStart(out, collectionName);
    for (const XdmfEntry& e : entries)
        if (holdsMesh(e, mesh)) uniformGrid(out, "      ", e, mesh, meshName(mesh));
    documentEnd(out);
    return out.str();
}

std::string xdmfPiecesDocument(const std::string& collectionName,
                               const std::vector<std::vector<XdmfEntry>>& steps, XdmfMesh mesh) {
    std::ostringstream out;
    documentStart(out, collectionName);
    const std::string in = "      ";
    for (const std::vector<XdmfEntry>& pieces : steps) {
        if (pieces.size() == 1) {
            if (holdsMesh(pieces[0], mesh)) uniformGrid(out, in, pieces[0], mesh, meshName(mesh));
            continue;
        }
        const auto holding = std::count_if(pieces.begin(), pieces.end(),
                                           [&](const XdmfEntry& e) { return holdsMesh(e, mesh); });
        if (holding == 0) continue;
        const XdmfEntry& first = pieces.front();
        out << in << "<Grid Name=\"step " << first.step
            << "\" GridType=\"Collection\" CollectionType=\"Spatial\">\n"
            << in << "  <Time Value=\"" << formatDouble(first.time) << "\"/>\n";
        for (std::size_t r = 0; r < pieces.size(); ++r)
            if (holdsMesh(pieces[r], mesh))
                uniformGrid(out, in + "  ", pieces[r], mesh,
                            std::string(meshName(mesh)) + " " + std::to_string(r));
        out << in << "</Grid>\n";
    }
    documentEnd(out);
    return out.str();
}

}  // namespace cf::io
