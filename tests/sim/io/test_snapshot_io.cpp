// SPDX-License-Identifier: GPL-3.0-or-later
// HDF5 snapshots and their XDMF sidecar. The .h5 files are checked with the HDF5 C API
// directly, not only through readSnapshot, so a reader bug cannot hide a writer bug.
#include <gtest/gtest.h>

#include <bit>
#include <map>
#include <set>
#include <sstream>

#include "sim/io/snapshot_writer.hpp"
#include "sim/io/xdmf.hpp"
#include "tests/sim/io/io_test_support.hpp"

#if CELLFORGE_HAVE_HDF5
#include <hdf5.h>
#endif

namespace cf::io {
namespace {

namespace fs = std::filesystem;
using testing::ScratchDir;

// Particles (positions, a vector and a scalar), a 4 x 3 x 2 grid with a scalar and a
// 6-component field, and internal state that must not reach the XDMF.
Snapshot makeSnapshot(std::uint64_t step, double time) {
    Snapshot s;
    s.step = step;
    s.time = time;
    s.timeUnit = "s";
    s.boxLo[0] = -1.0;
    s.boxHi[0] = 3.0;
    s.boxHi[1] = 6.0;
    s.boxHi[2] = 0.5;
    s.gridDims[0] = 4;
    s.gridDims[1] = 3;
    s.gridDims[2] = 2;
    std::vector<double> pos;
    for (int i = 0; i < 5 * 3; ++i)
        pos.push_back(0.25 * i + static_cast<double>(step));
    s.fields.push_back(Field::of<double>("positions", "um", FieldRole::Positions, 3, pos));
    const std::vector<float> vel(15, 0.5f);
    s.fields.push_back(Field::of<float>("velocity", "um/s", FieldRole::PerEntity, 3, vel));
    const std::vector<std::int32_t> type = {0, 1, 2, -3, 4};
    s.fields.push_back(Field::of<std::int32_t>("type", "1", FieldRole::PerEntity, 1, type));
    std::vector<float> conc;
    for (int i = 0; i < 24; ++i)
        conc.push_back(0.1f * i);
    s.fields.push_back(Field::of<float>("concentration", "uM", FieldRole::Grid, 1, conc));
    const std::vector<double> stress(24 * 6, 1e-300);
    s.fields.push_back(Field::of<double>("stress", "Pa", FieldRole::Grid, 6, stress));
    const std::vector<std::uint8_t> mask(24, 1);
    s.fields.push_back(Field::of<std::uint8_t>("mask", "1", FieldRole::Grid, 1, mask));
    const std::vector<std::uint64_t> rng = {1, 2, 3, 0xffffffffffffffffull};
    s.fields.push_back(Field::of<std::uint64_t>("rng_state", "1", FieldRole::Internal, 2, rng));
    const std::vector<std::uint32_t> ids = {7, 8, 9, 10, 11};
    s.fields.push_back(Field::of<std::uint32_t>("id", "1", FieldRole::PerEntity, 1, ids));
    const std::vector<std::uint32_t> slots(64, 3);
    s.fields.push_back(Field::of<std::uint32_t>("slots", "1", FieldRole::RestartOnly, 1, slots));
    return s;
}

// Both documents the writer makes of these entries, particles first.
std::string bothDocuments(const std::vector<XdmfEntry>& entries) {
    return xdmfDocument("toy", entries, XdmfMesh::Particles) +
           xdmfDocument("toy", entries, XdmfMesh::Grid);
}

// A minimal XML reader: checks that tags nest properly and collects elements by name.
struct XmlElement {
    std::string name;
    std::map<std::string, std::string> attributes;
    std::string text;  // direct character data (DataItem contents)
};

std::vector<XmlElement> parseXml(const std::string& xml) {
    std::vector<XmlElement> all;
    std::vector<std::size_t> open;  // indices into `all`
    std::size_t i = 0;
    while ((i = xml.find('<', i)) != std::string::npos) {
        const std::size_t end = xml.find('>', i);
        EXPECT_NE(end, std::string::npos) << "unterminated tag";
        if (end == std::string::npos) break;
        std::string tag = xml.substr(i + 1, end - i - 1);
        if (tag[0] == '?' || tag[0] == '!') {
            i = end + 1;
            continue;
        }
        if (tag[0] == '/') {
            EXPECT_FALSE(open.empty()) << "closing tag without opening: " << tag;
            if (!open.empty()) {
                EXPECT_EQ(all[open.back()].name, tag.substr(1)) << "mis-nested tag";
                open.pop_back();
            }
            i = end + 1;
            continue;
        }
        const bool selfClosing = tag.back() == '/';
        if (selfClosing) tag.pop_back();
        XmlElement e;
        std::istringstream in(tag);
        in >> e.name;
        std::size_t pos = e.name.size();
        while ((pos = tag.find('=', pos)) != std::string::npos) {
            std::size_t k = pos;
            while (k > 0 && tag[k - 1] != ' ')
                --k;
            const std::string key = tag.substr(k, pos - k);
            EXPECT_EQ(tag[pos + 1], '"') << "unquoted attribute " << key;
            const std::size_t close = tag.find('"', pos + 2);
            e.attributes[key] = tag.substr(pos + 2, close - pos - 2);
            pos = close + 1;
        }
        if (!selfClosing) {
            const std::size_t next = xml.find('<', end);
            e.text = xml.substr(end + 1, next - end - 1);
            open.push_back(all.size());
        }
        all.push_back(std::move(e));
        i = end + 1;
    }
    EXPECT_TRUE(open.empty()) << "unclosed tags";
    return all;
}

std::string trim(const std::string& s) {
    const auto b = s.find_first_not_of(" \n\t");
    const auto e = s.find_last_not_of(" \n\t");
    return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

using SnapshotIoTest = ScratchDir;

TEST_F(SnapshotIoTest, WithoutHdf5TheWriterExplainsWhy) {
    if (hdf5Available()) GTEST_SKIP() << "this build has HDF5; the fallback is not compiled";
    try {
        SnapshotWriter w(dir(), "toy");
        FAIL() << "expected IoError";
    } catch (const IoError& e) {
        EXPECT_NE(std::string(e.what()).find("no HDF5 support"), std::string::npos) << e.what();
    }
}

TEST_F(SnapshotIoTest, Hdf5RoundTripThroughReadSnapshot) {
    if (!hdf5Available()) GTEST_SKIP() << "built without HDF5 (CELLFORGE_HDF5=OFF or not found)";
    SnapshotWriter w(dir(), "toy");
    const Snapshot s = makeSnapshot(42, 0.1 + 0.2);
    const fs::path file = w.write(s);
    EXPECT_EQ(file, dir() / "snapshots" / "toy_000000042.h5");
    ASSERT_EQ(w.files().size(), 1u);
    EXPECT_EQ(w.files()[0], file);
    EXPECT_EQ(w.xdmfPath(), dir() / "toy.xmf");
    // Only the finished files: no temporaries left next to them.
    EXPECT_EQ(std::distance(fs::directory_iterator(dir() / "snapshots"), fs::directory_iterator()),
              1);

    const Snapshot r = readSnapshot(file);
    EXPECT_EQ(r.step, 42u);
    EXPECT_EQ(std::bit_cast<std::uint64_t>(r.time), std::bit_cast<std::uint64_t>(0.1 + 0.2));
    EXPECT_EQ(r.timeUnit, "s");
    for (int i = 0; i < 3; ++i) {
        EXPECT_EQ(r.boxLo[i], s.boxLo[i]);
        EXPECT_EQ(r.boxHi[i], s.boxHi[i]);
        EXPECT_EQ(r.gridDims[i], s.gridDims[i]);
    }
    // Every field but the RestartOnly one, which only checkpoints hold; the vertex dataset
    // (in a group) is not a field.
    ASSERT_EQ(r.fields.size(), s.fields.size() - 1);
    EXPECT_EQ(r.find("slots"), nullptr);
    EXPECT_EQ(r.find("connectivity"), nullptr);
    for (std::size_t i = 0; i < r.fields.size(); ++i) {
        const Field& a = s.fields[i];
        const Field& b = r.fields[i];
        EXPECT_EQ(a.name, b.name);  // written order is kept
        EXPECT_EQ(a.unit, b.unit) << a.name;
        EXPECT_EQ(a.type, b.type) << a.name;
        EXPECT_EQ(a.role, b.role) << a.name;
        EXPECT_EQ(a.count, b.count) << a.name;
        EXPECT_EQ(a.components, b.components) << a.name;
        EXPECT_TRUE(a.bytes == b.bytes) << a.name;
    }
}

TEST_F(SnapshotIoTest, ErrorsNameTheFileAndNothingIsPrinted) {
    if (!hdf5Available()) GTEST_SKIP() << "built without HDF5 (CELLFORGE_HDF5=OFF or not found)";
    const fs::path missing = dir() / "missing.h5";
    const fs::path text = dir() / "text.h5";
    std::ofstream(text) << "not an HDF5 file";
    ::testing::internal::CaptureStderr();
    for (const fs::path& p : {missing, text}) {
        try {
            readSnapshot(p);
            ADD_FAILURE() << "expected IoError for " << p;
        } catch (const IoError& e) {
            EXPECT_NE(std::string(e.what()).find(p.string()), std::string::npos) << e.what();
        }
    }
    Snapshot bad = makeSnapshot(1, 0.0);
    bad.fields[1].name = "a/b";
    SnapshotWriter w(dir(), "toy");
    EXPECT_THROW(w.write(bad), IoError);
    EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");
}

#if CELLFORGE_HAVE_HDF5
// The shape of `/dataset` in `file`, read with the HDF5 C API.
std::vector<hsize_t> datasetShape(const fs::path& file, const std::string& dataset) {
    std::vector<hsize_t> shape;
    const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    if (f < 0) return shape;
    const hid_t d = H5Dopen2(f, dataset.c_str(), H5P_DEFAULT);
    if (d >= 0) {
        const hid_t space = H5Dget_space(d);
        shape.resize(static_cast<std::size_t>(H5Sget_simple_extent_ndims(space)));
        H5Sget_simple_extent_dims(space, shape.data(), nullptr);
        H5Sclose(space);
        H5Dclose(d);
    }
    H5Fclose(f);
    return shape;
}
#endif

#if CELLFORGE_HAVE_HDF5
// The values of the int32 dataset `name` in `file`.
std::vector<std::int32_t> readInt32(const fs::path& file, const char* name) {
    std::vector<std::int32_t> out;
    const std::vector<hsize_t> shape = datasetShape(file, name);
    if (shape.size() != 1) return out;
    out.resize(shape[0]);
    const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    const hid_t d = H5Dopen2(f, name, H5P_DEFAULT);
    const hid_t type = H5Dget_type(d);
    if (H5Tequal(type, H5T_NATIVE_INT32) <= 0 ||
        H5Dread(d, H5T_NATIVE_INT32, H5S_ALL, H5S_ALL, H5P_DEFAULT, out.data()) < 0)
        out.clear();
    H5Tclose(type);
    H5Dclose(d);
    H5Fclose(f);
    return out;
}
#endif

TEST_F(SnapshotIoTest, XdmfDataItemsReferenceExistingDatasetsWithMatchingSizes) {
    if (!hdf5Available()) GTEST_SKIP() << "built without HDF5 (CELLFORGE_HDF5=OFF or not found)";
#if CELLFORGE_HAVE_HDF5
    SnapshotWriter w(dir(), "toy");
    w.write(makeSnapshot(0, 0.0));
    w.write(makeSnapshot(10, 0.5));
    w.write(makeSnapshot(20, 1.0));
    // Particles and a grid: one document each, so each opens in its own representation.
    EXPECT_EQ(w.gridXdmfPath(), dir() / "toy_grid.xmf");
    const std::string particlesXml = testing::readText(w.xdmfPath());
    const std::string gridXml = testing::readText(w.gridXdmfPath());

    int temporal = 0, times = 0, hdfItems = 0;
    std::set<std::string> attributes;
    for (const std::string* xml : {&particlesXml, &gridXml}) {
        for (const XmlElement& e : parseXml(*xml)) {
            if (e.name == "Grid" && e.attributes.count("CollectionType") &&
                e.attributes.at("CollectionType") == "Temporal") {
                ++temporal;
                EXPECT_EQ(e.attributes.at("GridType"), "Collection");
            }
            if (e.name == "Time") ++times;
            if (e.name == "Attribute") attributes.insert(e.attributes.at("Name"));
            if (e.name != "DataItem" || e.attributes.at("Format") != "HDF") continue;
            ++hdfItems;
            const std::string ref = trim(e.text);
            const auto colon = ref.find(":/");
            ASSERT_NE(colon, std::string::npos) << ref;
            const fs::path h5 = dir() / ref.substr(0, colon);
            ASSERT_TRUE(fs::exists(h5)) << ref;
            const std::vector<hsize_t> shape = datasetShape(h5, ref.substr(colon + 1));
            ASSERT_FALSE(shape.empty()) << "no dataset for " << ref;
            // The same number of values, the components last: grid items state the grid's
            // shape (z y x [components]) over a [count] or [count, components] dataset.
            std::istringstream dims(e.attributes.at("Dimensions"));
            std::vector<hsize_t> stated;
            for (hsize_t d = 0; dims >> d;)
                stated.push_back(d);
            hsize_t statedValues = 1, values = 1;
            for (hsize_t d : stated)
                statedValues *= d;
            for (hsize_t d : shape)
                values *= d;
            EXPECT_EQ(statedValues, values) << ref;
            if (shape.size() == 2) {
                EXPECT_EQ(stated.back(), shape[1]) << ref;
            }
        }
    }
    EXPECT_EQ(temporal, 2);
    EXPECT_EQ(times, 2 * 3);
    // Per snapshot: positions, connectivity, velocity, type, id; concentration, stress, mask.
    EXPECT_EQ(hdfItems, 3 * 8);
    EXPECT_EQ(attributes,
              (std::set<std::string>{"velocity", "type", "id", "concentration", "stress", "mask"}));
    for (const std::string* xml : {&particlesXml, &gridXml}) {
        EXPECT_EQ(xml->find("rng_state"), std::string::npos) << "internal fields stay out";
        EXPECT_EQ(xml->find("slots"), std::string::npos) << "restart-only fields stay out";
    }
    // The vertex cells: 0 .. n-1, one per particle.
    const fs::path h5 = dir() / "snapshots" / "toy_000000010.h5";
    EXPECT_EQ(readInt32(h5, kVertexDataset), (std::vector<std::int32_t>{0, 1, 2, 3, 4}));
    EXPECT_TRUE(datasetShape(h5, "/slots").empty()) << "RestartOnly fields are not written";
#endif
}

// One XDMF document, indexed: elements by "name:TopologyType or Name", and per attribute
// its AttributeType, Center and the Dimensions of its DataItem.
struct XdmfDoc {
    struct Attr {
        std::string type, center, dims;
    };
    std::vector<XmlElement> elements;
    std::map<std::string, const XmlElement*> byName;
    std::map<std::string, Attr> attributes;
    std::vector<const XmlElement*> topologyItems;  // DataItems inside a Topology

    explicit XdmfDoc(const std::string& xml) : elements(parseXml(xml)) {
        std::string attribute, parent;
        for (const XmlElement& el : elements) {
            const auto has = [&](const char* key) { return el.attributes.count(key) > 0; };
            byName.emplace(el.name + ":" +
                               (has("TopologyType") ? el.attributes.at("TopologyType")
                                : has("Name")       ? el.attributes.at("Name")
                                                    : ""),
                           &el);
            if (el.name == "Attribute") {
                attribute = el.attributes.at("Name");
                attributes[attribute] = {el.attributes.at("AttributeType"),
                                         el.attributes.at("Center"), ""};
            } else if (el.name == "DataItem" && parent == "Attribute") {
                attributes[attribute].dims = el.attributes.at("Dimensions");
            } else if (el.name == "DataItem" && parent == "Topology") {
                topologyItems.push_back(&el);
            }
            if (el.name != "DataItem") parent = el.name;
        }
    }
    std::string text(const std::string& key) const {
        return byName.count(key) ? trim(byName.at(key)->text) : "(missing " + key + ")";
    }
    std::string attribute(const std::string& key, const char* name) const {
        return byName.count(key) && byName.at(key)->attributes.count(name)
                   ? byName.at(key)->attributes.at(name)
                   : "(missing " + key + " " + name + ")";
    }
};

TEST(Xdmf, ParticlesHaveOneVertexCellEachFromTheVertexDataset) {
    const XdmfEntry e = XdmfEntry::describe(makeSnapshot(7, 0.25), "snapshots/toy_000000007.h5");
    EXPECT_EQ(e.vertexDataset, kVertexDataset);
    EXPECT_EQ(xdmfParticleCount(e), 5u);
    const XdmfDoc doc(xdmfDocument("toy", {e}, XdmfMesh::Particles));
    EXPECT_EQ(doc.attribute("Xdmf:", "Version"), "3.0");
    EXPECT_EQ(doc.attribute("Topology:Polyvertex", "NumberOfElements"), "5");
    EXPECT_EQ(doc.attribute("Topology:Polyvertex", "NodesPerElement"), "1");
    // Connectivity present and consistent with the point count: one index per point.
    ASSERT_EQ(doc.topologyItems.size(), 1u);
    const XmlElement& conn = *doc.topologyItems[0];
    EXPECT_EQ(conn.attributes.at("Dimensions"), "5");
    EXPECT_EQ(conn.attributes.at("NumberType"), "Int");
    EXPECT_EQ(conn.attributes.at("Precision"), "4");
    EXPECT_EQ(trim(conn.text), "snapshots/toy_000000007.h5:/xdmf/connectivity");
    EXPECT_EQ(doc.attribute("Geometry:", "GeometryType"), "XYZ");
    // Node attributes in the dataset's shape.
    EXPECT_EQ(doc.attributes.at("velocity").type, "Vector");
    EXPECT_EQ(doc.attributes.at("velocity").center, "Node");
    EXPECT_EQ(doc.attributes.at("velocity").dims, "5 3");
    EXPECT_EQ(doc.attributes.at("type").type, "Scalar");
    EXPECT_EQ(doc.attributes.at("type").dims, "5");
    EXPECT_EQ(doc.attributes.size(), 3u) << "velocity, type, id; no grid field";
    EXPECT_EQ(doc.byName.count("Topology:3DCoRectMesh"), 0u);
    EXPECT_EQ(doc.byName.count("Time:"), 1u);
}

TEST(Xdmf, FilesWithoutTheVertexDatasetKeepTheImplicitPolyvertex) {
    XdmfEntry e = XdmfEntry::describe(makeSnapshot(7, 0.25), "old.h5");
    e.vertexDataset.clear();
    const XdmfDoc doc(xdmfDocument("toy", {e}, XdmfMesh::Particles));
    EXPECT_EQ(doc.attribute("Topology:Polyvertex", "NumberOfElements"), "5");
    EXPECT_TRUE(doc.topologyItems.empty());
}

TEST(Xdmf, AVolumeIsCellCentredInZyxOrderWithShapedDataItems) {
    const XdmfEntry e = XdmfEntry::describe(makeSnapshot(7, 0.25), "snapshots/toy_000000007.h5");
    const XdmfDoc doc(xdmfDocument("toy", {e}, XdmfMesh::Grid));
    // 4 x 3 x 2 cells (x, y, z) -> 3 x 4 x 5 points listed z first, from the box corner.
    EXPECT_EQ(doc.attribute("Topology:3DCoRectMesh", "Dimensions"), "3 4 5");
    EXPECT_EQ(doc.text("DataItem:Origin"), "0 0 -1");
    EXPECT_EQ(doc.text("DataItem:Spacing"), "0.25 2 1");
    // The grid's shape, components last, over the flat datasets.
    EXPECT_EQ(doc.attributes.at("concentration").center, "Cell");
    EXPECT_EQ(doc.attributes.at("concentration").dims, "2 3 4");
    EXPECT_EQ(doc.attributes.at("stress").type, "Tensor6");
    EXPECT_EQ(doc.attributes.at("stress").center, "Cell");
    EXPECT_EQ(doc.attributes.at("stress").dims, "2 3 4 6");
    EXPECT_EQ(doc.attributes.size(), 3u) << "concentration, stress, mask; no particle field";
    EXPECT_EQ(doc.byName.count("Topology:Polyvertex"), 0u);
}

// gliding's layout: an n x n sheet one cell thick with a scalar, a 2-component flow and
// Psi with 16 components per cell.
Snapshot makeSheet() {
    Snapshot s;
    s.boxLo[0] = -2.0;
    s.boxHi[0] = 2.0;
    s.boxHi[1] = 3.0;
    s.boxHi[2] = 0.5;
    s.gridDims[0] = 4;
    s.gridDims[1] = 3;
    s.gridDims[2] = 1;
    s.fields.push_back(
        Field::of<double>("density", "n0", FieldRole::Grid, 1, std::vector<double>(12, 1.0)));
    s.fields.push_back(
        Field::of<double>("flow", "V", FieldRole::Grid, 2, std::vector<double>(24, 0.5)));
    s.fields.push_back(
        Field::of<double>("psi", "n0", FieldRole::Grid, 16, std::vector<double>(12 * 16, 0.1)));
    s.fields.push_back(
        Field::of<float>("tensor", "1", FieldRole::Grid, 9, std::vector<float>(12 * 9, 2.0f)));
    return s;
}

TEST(Xdmf, ASheetIsAFlatGridOfCellCentresWithNodeValues) {
    const XdmfDoc doc(
        xdmfDocument("gl", {XdmfEntry::describe(makeSheet(), "s.h5")}, XdmfMesh::Grid));
    // 2-D: one point across the sheet, points at the 4 x 3 cell centres (z y x).
    EXPECT_EQ(doc.attribute("Topology:3DCoRectMesh", "Dimensions"), "1 3 4");
    EXPECT_EQ(doc.text("DataItem:Origin"), "0.25 0.5 -1.5");  // mid-plane, half a cell in
    EXPECT_EQ(doc.text("DataItem:Spacing"), "0.5 1 1");
    for (const char* name : {"density", "flow", "psi", "tensor"})
        EXPECT_EQ(doc.attributes.at(name).center, "Node") << name;
    // Component layout: the shape, then the components; counts other than 1, 3, 6 and 9
    // are a Matrix, which both ParaView readers read with the count unchanged.
    EXPECT_EQ(doc.attributes.at("density").type, "Scalar");
    EXPECT_EQ(doc.attributes.at("density").dims, "1 3 4");
    EXPECT_EQ(doc.attributes.at("flow").type, "Matrix");
    EXPECT_EQ(doc.attributes.at("flow").dims, "1 3 4 2");
    EXPECT_EQ(doc.attributes.at("psi").type, "Matrix");
    EXPECT_EQ(doc.attributes.at("psi").dims, "1 3 4 16");
    EXPECT_EQ(doc.attributes.at("tensor").type, "Tensor");
    EXPECT_EQ(doc.attributes.at("tensor").dims, "1 3 4 9");
}

TEST(Xdmf, EscapesNamesAndSkipsMisSizedFields) {
    Snapshot s = makeSnapshot(1, 1.0);
    s.fields[2].name = "a<b&\"c\"";
    s.fields[3].count = 23;  // no longer matches the 4 x 3 x 2 grid
    s.fields[3].bytes.resize(23 * 4);
    const std::string xml = bothDocuments({XdmfEntry::describe(s, "f.h5")});
    EXPECT_NE(xml.find("a&lt;b&amp;&quot;c&quot;"), std::string::npos);
    EXPECT_EQ(xml.find("concentration"), std::string::npos);
    parseXml(xdmfDocument("toy", {XdmfEntry::describe(s, "f.h5")}, XdmfMesh::Particles));
    parseXml(xdmfDocument("toy", {XdmfEntry::describe(s, "f.h5")}, XdmfMesh::Grid));
}

TEST_F(SnapshotIoTest, OneXdmfPerMeshAndNoStaleGridDocument) {
    if (!hdf5Available()) GTEST_SKIP() << "built without HDF5 (CELLFORGE_HDF5=OFF or not found)";
    {
        SnapshotWriter w(dir(), "toy");
        w.write(makeSnapshot(0, 0.0));
        EXPECT_TRUE(fs::exists(w.gridXdmfPath()));
        EXPECT_EQ(testing::readText(w.xdmfPath()).find("3DCoRectMesh"), std::string::npos);
        EXPECT_EQ(testing::readText(w.gridXdmfPath()).find("Polyvertex"), std::string::npos);
    }
    // A later run in the same folder with a grid only: <model>.xmf holds it, and the
    // grid document of the earlier run goes.
    fs::remove_all(dir() / "snapshots");
    SnapshotWriter w(dir(), "toy");
    Snapshot gridOnly = makeSnapshot(0, 0.0);
    std::erase_if(gridOnly.fields, [](const Field& f) {
        return f.role == FieldRole::Positions || f.role == FieldRole::PerEntity;
    });
    w.write(gridOnly);
    EXPECT_FALSE(fs::exists(w.gridXdmfPath()));
    EXPECT_NE(testing::readText(w.xdmfPath()).find("3DCoRectMesh"), std::string::npos);
}

TEST_F(SnapshotIoTest, AdoptedFilesWithoutTheVertexDatasetAreNotPointedAtIt) {
    if (!hdf5Available()) GTEST_SKIP() << "built without HDF5 (CELLFORGE_HDF5=OFF or not found)";
#if CELLFORGE_HAVE_HDF5
    {
        SnapshotWriter w(dir(), "toy");
        w.write(makeSnapshot(0, 0.0));
        w.write(makeSnapshot(10, 0.5));
    }
    // The step-0 file as written before the vertex dataset existed.
    const fs::path old = dir() / "snapshots" / "toy_000000000.h5";
    const hid_t f = H5Fopen(old.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    ASSERT_GE(f, 0);
    EXPECT_GE(H5Ldelete(f, "/xdmf", H5P_DEFAULT), 0);
    H5Fclose(f);
    SnapshotWriter w(dir(), "toy");
    w.adoptExisting(UINT64_MAX);
    const std::string xml = testing::readText(w.xdmfPath());
    EXPECT_EQ(xml.find("toy_000000000.h5:/xdmf/connectivity"), std::string::npos);
    EXPECT_NE(xml.find("toy_000000010.h5:/xdmf/connectivity"), std::string::npos);
#endif
}

}  // namespace
}  // namespace cf::io
