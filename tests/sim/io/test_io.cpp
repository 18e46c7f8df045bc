// SPDX-License-Identifier: GPL-3.0-or-later
// Checkpoints, CSV time series and run.json.
#include <gtest/gtest.h>

#include <bit>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <limits>
#include <nlohmann/json.hpp>
#include <regex>
#include <typeinfo>
#include <utility>

#include "sim/io/checkpoint.hpp"
#include "sim/io/run_info.hpp"
#include "sim/io/series_writer.hpp"
#include "tests/sim/io/io_test_support.hpp"

namespace cf::io {
namespace {

namespace fs = std::filesystem;
using testing::ScratchDir;

std::uint64_t bits(double x) {
    return std::bit_cast<std::uint64_t>(x);
}

// Doubles whose shortest text is long, tiny, huge or signed.
const double kTrickyDoubles[] = {0.1,
                                 1e-300,
                                 0.1 + 0.2,
                                 1.0 / 3.0,
                                 -0.0,
                                 5e-324,
                                 DBL_MAX,
                                 DBL_MIN,
                                 9007199254740993.0,
                                 -2.718281828459045,
                                 123456789.123456789};

Snapshot makeState() {
    Snapshot s;
    s.step = 123456789012ull;
    s.time = 0.1 + 0.2;
    s.timeUnit = "ms";
    s.boxLo[0] = -1e-300;
    s.boxHi[1] = 1.0 / 3.0;
    s.boxHi[2] = 7.5;
    s.gridDims[0] = 2;
    s.gridDims[1] = 3;
    s.gridDims[2] = 1;
    const float nanPayload = std::bit_cast<float>(0x7fc12345u);
    const std::vector<float> pos = {0.1f, -0.0f, 1e-45f, nanPayload, 3.0f, 4.0f};
    s.fields.push_back(Field::of<float>("positions", "um", FieldRole::Positions, 3, pos));
    const std::vector<double> energy = {1e-300, 0.1};
    s.fields.push_back(Field::of<double>("energy", "pJ", FieldRole::PerEntity, 1, energy));
    const std::vector<std::int32_t> kind = {-7, 2147483647};
    s.fields.push_back(Field::of<std::int32_t>("kind", "1", FieldRole::PerEntity, 1, kind));
    const std::vector<std::uint32_t> conc = {1, 2, 3, 4, 5, 4294967295u};
    s.fields.push_back(Field::of<std::uint32_t>("occupancy", "1", FieldRole::Grid, 1, conc));
    const std::vector<std::uint8_t> flags = {0, 255};
    s.fields.push_back(Field::of<std::uint8_t>("flags", "1", FieldRole::PerEntity, 1, flags));
    s.fields.push_back(
        Field::of<float>("empty", "1", FieldRole::PerEntity, 1, std::span<const float>()));
    const std::vector<std::uint64_t> rng = {0xffffffffffffffffull, 42, 0, 1};
    s.fields.push_back(Field::of<std::uint64_t>("rng_counters", "1", FieldRole::Internal, 2, rng));
    return s;
}

// Text with everything JSON must escape (quotes, backslashes, newlines, tabs) and UTF-8.
constexpr const char* kNetwork = "A + B -> C @ 1e5\n\"q\" \\ x\t-> y\nCa²⁺ -> ∅";

Checkpoint makeCheckpoint(const ParamTable& table) {
    Checkpoint c{"toy", 4000000000u, Backend::Cuda, ParamSet(table), {}, makeState()};
    c.parameters.set("time.dt", 0.1 + 0.2);
    c.parameters.set("domain.count", std::int64_t{9'000'000'000});
    c.parameters.set("domain.periodic", false);
    c.parameters.set("domain.layout", std::string("hex"));
    c.parameters.set("domain.network", std::string(kNetwork));
    c.parameters.set("domain.input", std::string("/data/run 1/occ.bin"));
    c.history.push_back({10, 0.1, "time.dt", 0.1, 0.1 + 0.2, false});
    c.history.push_back(
        {20, 1e-300, "domain.layout", std::string("random"), std::string("hex"), true});
    c.history.push_back(
        {30, 2.5, "domain.count", std::int64_t{100}, std::int64_t{9'000'000'000}, true});
    c.history.push_back({40, 3.0, "domain.periodic", true, false, false});
    c.history.push_back(
        {50, 4.0, "domain.network", std::string("A -> B @ 1"), std::string(kNetwork), true});
    return c;
}

void expectSameValue(const ParamValue& a, const ParamValue& b, const std::string& what) {
    ASSERT_EQ(a.index(), b.index()) << what;
    if (const double* x = std::get_if<double>(&a)) {
        EXPECT_EQ(bits(*x), bits(std::get<double>(b))) << what;
    } else {
        EXPECT_TRUE(a == b) << what;
    }
}

void expectSameSnapshot(const Snapshot& a, const Snapshot& b) {
    EXPECT_EQ(a.step, b.step);
    EXPECT_EQ(bits(a.time), bits(b.time));
    EXPECT_EQ(a.timeUnit, b.timeUnit);
    for (int i = 0; i < 3; ++i) {
        EXPECT_EQ(bits(a.boxLo[i]), bits(b.boxLo[i]));
        EXPECT_EQ(bits(a.boxHi[i]), bits(b.boxHi[i]));
        EXPECT_EQ(a.gridDims[i], b.gridDims[i]);
    }
    ASSERT_EQ(a.fields.size(), b.fields.size());
    for (std::size_t i = 0; i < a.fields.size(); ++i) {
        const Field& x = a.fields[i];
        const Field& y = b.fields[i];
        EXPECT_EQ(x.name, y.name);
        EXPECT_EQ(x.unit, y.unit) << x.name;
        EXPECT_EQ(x.type, y.type) << x.name;
        EXPECT_EQ(x.role, y.role) << x.name;
        EXPECT_EQ(x.count, y.count) << x.name;
        EXPECT_EQ(x.components, y.components) << x.name;
        EXPECT_TRUE(x.bytes == y.bytes) << "bytes of field " << x.name << " differ";
    }
}

// Runs `f`, expecting an error of type E whose message contains every one of `parts`.
template <typename E, typename F>
void expectError(F&& f, std::initializer_list<std::string> parts) {
    try {
        f();
        FAIL() << "expected " << typeid(E).name();
    } catch (const E& e) {
        const std::string msg = e.what();
        for (const std::string& p : parts)
            EXPECT_NE(msg.find(p), std::string::npos) << "'" << p << "' not in: " << msg;
    }
}

// Writing fails: an IoError (a failure, exit 3).
template <typename F>
void expectIoError(F&& f, std::initializer_list<std::string> parts) {
    expectError<IoError>(std::forward<F>(f), parts);
}

// A checkpoint that does not read is refused as bad input: an InputFileError (exit 2).
template <typename F>
void expectRefused(F&& f, std::initializer_list<std::string> parts) {
    expectError<InputFileError>(std::forward<F>(f), parts);
}

using CheckpointTest = ScratchDir;

TEST_F(CheckpointTest, RoundTripIsBitIdentical) {
    const Checkpoint c = makeCheckpoint(testing::toyTable());
    const fs::path file = dir() / "run" / "state.cfchk";
    writeCheckpoint(file, c);
    // Only the final file is left behind: the temporary one was renamed.
    EXPECT_EQ(std::distance(fs::directory_iterator(dir() / "run"), fs::directory_iterator()), 1);

    const ModelRegistry registry = testing::registryWith(&testing::toyTable);
    const Checkpoint r = readCheckpoint(file, registry);
    EXPECT_EQ(r.model, "toy");
    EXPECT_EQ(r.seed, 4000000000u);
    EXPECT_EQ(r.backend, Backend::Cuda);
    EXPECT_TRUE(r.parameters == c.parameters);
    for (const ParamSpec& s : testing::toyTable().specs())
        expectSameValue(r.parameters.get(s.key()), c.parameters.get(s.key()), s.key());
    EXPECT_EQ(r.parameters.real("time.tiny"), 1e-300);
    EXPECT_EQ(r.parameters.choice("domain.layout"), "hex");
    EXPECT_EQ(r.parameters.text("domain.network"), kNetwork);
    EXPECT_EQ(r.parameters.text("domain.input"), "/data/run 1/occ.bin");
    ASSERT_EQ(r.history.size(), c.history.size());
    for (std::size_t i = 0; i < c.history.size(); ++i) {
        const ParamChange& a = c.history[i];
        const ParamChange& b = r.history[i];
        EXPECT_EQ(a.step, b.step);
        EXPECT_EQ(bits(a.time), bits(b.time));
        EXPECT_EQ(a.key, b.key);
        expectSameValue(a.oldValue, b.oldValue, a.key + " old");
        expectSameValue(a.newValue, b.newValue, a.key + " new");
        EXPECT_EQ(a.pendingReset, b.pendingReset);
    }
    expectSameSnapshot(c.state, r.state);

    // Writing what was read gives the same bytes: nothing drifts across restarts.
    const fs::path again = dir() / "again.cfchk";
    writeCheckpoint(again, r);
    EXPECT_EQ(testing::readText(file), testing::readText(again));
}

TEST_F(CheckpointTest, TrickyDoublesSurviveTheJsonHeader) {
    const ModelRegistry registry = testing::registryWith(&testing::toyTable);
    for (double x : kTrickyDoubles) {
        // nlohmann alone first: dump, parse, compare bits.
        const nlohmann::json j = x;
        EXPECT_EQ(bits(nlohmann::json::parse(j.dump()).get<double>()), bits(x)) << j.dump();

        Checkpoint c = makeCheckpoint(testing::toyTable());
        c.state.time = x;
        c.state.boxHi[0] = x;
        if (x >= 0 && x <= 1.0) c.parameters.set("time.dt", x);
        const fs::path file = dir() / "t.cfchk";
        writeCheckpoint(file, c);
        const Checkpoint r = readCheckpoint(file, registry);
        EXPECT_EQ(bits(r.state.time), bits(x)) << x;
        EXPECT_EQ(bits(r.state.boxHi[0]), bits(x)) << x;
        EXPECT_EQ(bits(r.parameters.real("time.dt")), bits(c.parameters.real("time.dt")));
    }
    // Non-finite times cannot be JSON numbers; they still come back.
    Checkpoint c = makeCheckpoint(testing::toyTable());
    c.state.time = std::numeric_limits<double>::infinity();
    c.state.boxLo[2] = std::numeric_limits<double>::quiet_NaN();
    writeCheckpoint(dir() / "inf.cfchk", c);
    const Checkpoint r = readCheckpoint(dir() / "inf.cfchk", registry);
    EXPECT_TRUE(std::isinf(r.state.time));
    EXPECT_TRUE(std::isnan(r.state.boxLo[2]));
}

TEST_F(CheckpointTest, TruncatedFileThrowsNamingTheFile) {
    const ModelRegistry registry = testing::registryWith(&testing::toyTable);
    const fs::path file = dir() / "cut.cfchk";
    writeCheckpoint(file, makeCheckpoint(testing::toyTable()));
    const auto size = fs::file_size(file);
    fs::resize_file(file, size - 5);  // inside the last field's bytes
    expectRefused([&] { readCheckpoint(file, registry); }, {file.string(), "truncated"});
    fs::resize_file(file, 40);  // inside the header
    expectRefused([&] { readCheckpoint(file, registry); }, {file.string(), "truncated"});
    fs::resize_file(file, 3);  // not even the magic
    expectRefused([&] { readCheckpoint(file, registry); }, {file.string(), "truncated"});
}

TEST_F(CheckpointTest, FlippedFieldByteThrowsChecksumMismatch) {
    const ModelRegistry registry = testing::registryWith(&testing::toyTable);
    const fs::path file = dir() / "flip.cfchk";
    writeCheckpoint(file, makeCheckpoint(testing::toyTable()));
    {
        // The last field ("rng_counters") ends the file; flip one bit of its last byte.
        std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
        f.seekg(-1, std::ios::end);
        char b = 0;
        f.read(&b, 1);
        b = static_cast<char>(b ^ 0x10);
        f.seekp(-1, std::ios::end);
        f.write(&b, 1);
    }
    expectRefused([&] { readCheckpoint(file, registry); },
                  {file.string(), "checksum mismatch", "rng_counters"});
}

TEST_F(CheckpointTest, WrongMagicThrows) {
    const ModelRegistry registry = testing::registryWith(&testing::toyTable);
    const fs::path file = dir() / "magic.cfchk";
    writeCheckpoint(file, makeCheckpoint(testing::toyTable()));
    {
        std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
        f.seekp(7);
        f.write("2", 1);  // CFCHK002
    }
    expectRefused([&] { readCheckpoint(file, registry); }, {file.string(), "bad magic"});

    const fs::path text = dir() / "notes.txt";
    std::ofstream(text) << "this is not a checkpoint, but it is long enough to have a header";
    expectRefused([&] { readCheckpoint(text, registry); }, {text.string(), "bad magic"});
    expectRefused([&] { readCheckpoint(dir() / "missing.cfchk", registry); },
                  {(dir() / "missing.cfchk").string(), "no such file"});
}

TEST_F(CheckpointTest, UnknownModelThrows) {
    Checkpoint c = makeCheckpoint(testing::toyTable());
    c.model = "no_such_model";
    const fs::path file = dir() / "unknown.cfchk";
    writeCheckpoint(file, c);
    expectRefused([&] { readCheckpoint(file, testing::registryWith(&testing::toyTable)); },
                  {file.string(), "unknown model 'no_such_model'", "toy"});
}

TEST_F(CheckpointTest, OutOfRangeParameterIsWrappedInInputFileError) {
    const fs::path file = dir() / "range.cfchk";
    writeCheckpoint(file, makeCheckpoint(testing::toyTable()));  // dt = 0.30000000000000004
    expectRefused([&] { readCheckpoint(file, testing::registryWith(&testing::strictToyTable)); },
                  {file.string(), "time.dt", "out of range"});
}

TEST_F(CheckpointTest, MisSizedFieldIsRejectedOnWrite) {
    Checkpoint c = makeCheckpoint(testing::toyTable());
    c.state.fields[0].bytes.pop_back();
    const fs::path file = dir() / "bad.cfchk";
    expectIoError([&] { writeCheckpoint(file, c); }, {file.string(), "positions"});
    EXPECT_FALSE(fs::exists(file));
    EXPECT_TRUE(fs::is_empty(dir()));  // no temporary file left behind either
}

TEST_F(CheckpointTest, UnwritableLocationThrows) {
    std::ofstream(dir() / "plain") << "x";
    const fs::path file = dir() / "plain" / "state.cfchk";  // parent is a regular file
    expectIoError([&] { writeCheckpoint(file, makeCheckpoint(testing::toyTable())); },
                  {(dir() / "plain").string()});
}

TEST(Fnv1a64, MatchesReferenceValues) {
    EXPECT_EQ(fnv1a64("", 0), 0xcbf29ce484222325ull);
    EXPECT_EQ(fnv1a64("a", 1), 0xaf63dc4c8601ec8cull);
    EXPECT_EQ(fnv1a64("foobar", 6), 0x85944171f73967e8ull);
}

// ---------------------------------------------------------------------------------------
// CSV

// Splits CSV text into rows of cells (RFC 4180 quoting).
std::vector<std::vector<std::string>> parseCsv(const std::string& text) {
    std::vector<std::vector<std::string>> rows;
    std::vector<std::string> row;
    std::string cell;
    bool quoted = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (quoted) {
            if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
                cell += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                cell += c;
            }
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            row.push_back(std::move(cell));
            cell.clear();
        } else if (c == '\n') {
            row.push_back(std::move(cell));
            cell.clear();
            rows.push_back(std::move(row));
            row.clear();
        } else {
            cell += c;
        }
    }
    EXPECT_TRUE(cell.empty() && row.empty()) << "CSV does not end with a newline";
    return rows;
}

using SeriesTest = ScratchDir;

TEST_F(SeriesTest, RoundTripsHeaderAndValuesExactly) {
    const fs::path file = dir() / "out" / "series.csv";
    SeriesWriter w(file, "ms");
    std::vector<Metric> m = {{"msd", "um^2", 0, "mean squared displacement"},
                             {"count, alive", "1", 0, "a name with a comma"},
                             {"say \"hi\"", "", 0, "a name with quotes"}};
    std::vector<std::array<double, 4>> expected;
    std::uint64_t step = 0;
    for (double x : kTrickyDoubles) {
        m[0].value = x;
        m[1].value = -x;
        m[2].value = x * 3;
        w.append(step, x / 7, m);
        expected.push_back({static_cast<double>(step), x / 7, -x, x * 3});
        step += 1000000007;
    }
    m[0].value = std::numeric_limits<double>::infinity();
    m[1].value = std::numeric_limits<double>::quiet_NaN();
    w.append(step, 1.0, m);

    // No close or explicit flush: every append is already on disk.
    const auto rows = parseCsv(testing::readText(file));
    ASSERT_EQ(rows.size(), std::size(kTrickyDoubles) + 2);
    EXPECT_EQ(rows[0], (std::vector<std::string>{"step", "time [ms]", "msd [um^2]",
                                                 "count, alive [1]", "say \"hi\""}));
    for (std::size_t i = 0; i < expected.size(); ++i) {
        const auto& r = rows[i + 1];
        ASSERT_EQ(r.size(), 5u);
        EXPECT_EQ(std::stoull(r[0]), static_cast<std::uint64_t>(expected[i][0]));
        EXPECT_EQ(bits(std::strtod(r[1].c_str(), nullptr)), bits(expected[i][1])) << r[1];
        EXPECT_EQ(bits(std::strtod(r[2].c_str(), nullptr)), bits(kTrickyDoubles[i])) << r[2];
        EXPECT_EQ(bits(std::strtod(r[3].c_str(), nullptr)), bits(expected[i][2])) << r[3];
        EXPECT_EQ(bits(std::strtod(r[4].c_str(), nullptr)), bits(expected[i][3])) << r[4];
    }
    EXPECT_EQ(rows.back()[2], "inf");
    EXPECT_EQ(rows.back()[3], "nan");
    EXPECT_EQ(rows[1][0], "0");
    EXPECT_EQ(rows[1][1], "0.014285714285714287");  // shortest form, not 0.00000000000000000e+00
    EXPECT_EQ(rows[1][2], "0.1");
}

TEST_F(SeriesTest, ChangedMetricSetThrows) {
    const fs::path file = dir() / "series.csv";
    SeriesWriter w(file);
    w.append(0, 0.0, {{"a", "1", 1.0, ""}, {"b", "um", 2.0, ""}});
    expectIoError(
        [&] {
            w.append(1, 0.1, {{"a", "1", 1.0, ""}});
        },
        {file.string(), "a [1], b [um]"});
    expectIoError(
        [&] {
            w.append(1, 0.1, {{"a", "1", 1.0, ""}, {"c", "um", 2.0, ""}});
        },
        {file.string(), "c [um]"});
    expectIoError(
        [&] {
            w.append(1, 0.1, {{"a", "1", 1.0, ""}, {"b", "nm", 2.0, ""}});
        },
        {file.string(), "b [nm]"});
    w.append(2, 0.2, {{"a", "1", 3.0, ""}, {"b", "um", 4.0, ""}});  // still usable
    const auto rows = parseCsv(testing::readText(file));
    ASSERT_EQ(rows.size(), 3u);
    EXPECT_EQ(rows[0][1], "time [s]");
    EXPECT_EQ(rows[2], (std::vector<std::string>{"2", "0.2", "3", "4"}));
}

TEST_F(SeriesTest, UncreatableFileThrows) {
    std::ofstream(dir() / "plain") << "x";
    EXPECT_THROW(SeriesWriter(dir() / "plain" / "series.csv"), IoError);
}

// ---------------------------------------------------------------------------------------
// run.json

using RunJsonTest = ScratchDir;

TEST_F(RunJsonTest, ParsesBackWithTypesAndHistory) {
    const Checkpoint c = makeCheckpoint(testing::toyTable());
    RunInfo info;
    info.model = "toy";
    info.seed = 42;
    info.backend = Backend::Cpu;
    info.device = "cpu (2 threads)";
    info.scenarioPath = "scenarios/toy.toml";
    info.commandLine = {"cellforge-sim", "run", "--set", "time.dt=0.3"};
    info.parameters = &c.parameters;
    info.history = c.history;
    info.stepsRequested = 1000;
    info.stepsCompleted = 998;
    info.wallSeconds = 1.25;
    info.status = "interrupted";
    info.message = "SIGINT";
    info.startedAt = isoTimestampNow();
    info.finishedAt = isoTimestampNow();
    info.timings = {{"advance", 1.0}, {"output", 0.25}};
    const fs::path file = dir() / "results" / "run.json";
    writeRunJson(file, info);

    const auto j = nlohmann::json::parse(testing::readText(file));
    EXPECT_EQ(j.at("model"), "toy");
    EXPECT_EQ(j.at("seed"), 42);
    EXPECT_EQ(j.at("backend"), "cpu");
    EXPECT_EQ(j.at("status"), "interrupted");
    EXPECT_EQ(j.at("steps_completed"), 998);
    EXPECT_EQ(j.at("command_line").size(), 4u);
    EXPECT_EQ(j.at("timings").at("output"), 0.25);

    const auto& p = j.at("parameters");
    ASSERT_TRUE(p.at("time").at("dt").is_number_float());
    EXPECT_EQ(bits(p["time"]["dt"].get<double>()), bits(0.1 + 0.2));
    EXPECT_EQ(p["time"]["tiny"].get<double>(), 1e-300);
    ASSERT_TRUE(p.at("domain").at("count").is_number_integer());
    EXPECT_EQ(p["domain"]["count"].get<std::int64_t>(), 9'000'000'000);
    ASSERT_TRUE(p["domain"].at("periodic").is_boolean());
    EXPECT_FALSE(p["domain"]["periodic"].get<bool>());
    ASSERT_TRUE(p["domain"].at("layout").is_string());
    EXPECT_EQ(p["domain"]["layout"], "hex");
    ASSERT_TRUE(p["domain"].at("network").is_string());
    EXPECT_EQ(p["domain"]["network"], kNetwork);

    const auto& h = j.at("history");
    ASSERT_EQ(h.size(), 5u);
    EXPECT_EQ(h[0].at("step"), 10);
    EXPECT_EQ(h[0].at("parameter"), "time.dt");
    EXPECT_TRUE(h[0].at("old").is_number_float());
    EXPECT_EQ(h[0].at("pending_reset"), false);
    EXPECT_EQ(h[1].at("old"), "random");
    EXPECT_EQ(h[1].at("new"), "hex");
    EXPECT_EQ(h[1].at("pending_reset"), true);
    EXPECT_TRUE(h[2].at("new").is_number_integer());
    EXPECT_TRUE(h[3].at("old").is_boolean());
    EXPECT_EQ(h[4].at("new"), kNetwork);

    const auto& v = j.at("versions");
    EXPECT_TRUE(v.at("cellforge").is_string());
    EXPECT_FALSE(v.at("cellforge").get<std::string>().empty());
    EXPECT_TRUE(v.at("compiler").is_string());
    EXPECT_GE(v.at("cxx_standard").get<long>(), 202002L);
    EXPECT_TRUE(v.contains("cuda_runtime"));
    EXPECT_TRUE(v.contains("hdf5"));
#if CELLFORGE_HAVE_HDF5
    EXPECT_TRUE(v.at("hdf5").is_string());
#endif
}

TEST_F(RunJsonTest, NullParametersAndTimestampFormat) {
    RunInfo info;
    info.model = "toy";
    info.status = "failed";
    writeRunJson(dir() / "run.json", info);
    const auto j = nlohmann::json::parse(testing::readText(dir() / "run.json"));
    EXPECT_TRUE(j.at("parameters").is_object());
    EXPECT_TRUE(j.at("parameters").empty());
    EXPECT_TRUE(j.at("history").is_array());
    EXPECT_TRUE(
        std::regex_match(isoTimestampNow(), std::regex(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)")));
}

}  // namespace
}  // namespace cf::io
