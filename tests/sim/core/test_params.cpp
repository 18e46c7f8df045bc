// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include "sim/core/params.hpp"
#include "tests/support/counter_model.hpp"
#include "tests/support/text_model.hpp"

namespace cf {
namespace {

using test::CounterParams;
using test::counterTable;

TEST(Params, DefaultsFillTheStruct) {
    const ParamSet set(counterTable());
    const auto p = set.toStruct<CounterParams>();
    EXPECT_EQ(p.rate, 1.0);
    EXPECT_EQ(p.size, 4);
    EXPECT_FALSE(p.poison);
}

TEST(Params, SetFromAssignmentParsesAndValidates) {
    ParamSet set(counterTable());
    const ParamValue old = set.setFromAssignment("dynamics.rate=2.5e-1");
    EXPECT_EQ(std::get<double>(old), 1.0);
    EXPECT_EQ(set.real("dynamics.rate"), 0.25);
    set.setFromAssignment("system.size=12");
    EXPECT_EQ(set.toStruct<CounterParams>().size, 12);
    set.setFromAssignment("debug.poison=true");
    EXPECT_TRUE(set.boolean("debug.poison"));
}

TEST(Params, OutOfRangeNamesParameterValueAndRange) {
    ParamSet set(counterTable());
    try {
        set.setFromAssignment("dynamics.rate=1000");
        FAIL() << "expected ParameterError";
    } catch (const ParameterError& e) {
        const std::string msg = e.what();
        EXPECT_NE(msg.find("dynamics.rate"), std::string::npos) << msg;
        EXPECT_NE(msg.find("1000"), std::string::npos) << msg;
        EXPECT_NE(msg.find("[-100, 100]"), std::string::npos) << msg;
        EXPECT_NE(msg.find("1/step"), std::string::npos) << msg;
    }
    EXPECT_EQ(set.real("dynamics.rate"), 1.0) << "a rejected value must not be stored";
}

TEST(Params, RejectsWrongTypesAndGarbage) {
    ParamSet set(counterTable());
    EXPECT_THROW(set.setFromAssignment("system.size=1.5"), ParameterError);
    EXPECT_THROW(set.setFromAssignment("dynamics.rate=fast"), ParameterError);
    EXPECT_THROW(set.setFromAssignment("dynamics.rate=nan"), ParameterError);
    EXPECT_THROW(set.setFromAssignment("debug.poison=maybe"), ParameterError);
    EXPECT_THROW(set.setFromAssignment("dynamics.rate"), ParameterError);
    EXPECT_THROW(set.set("system.size", ParamValue{std::string("x")}), ParameterError);
}

TEST(Params, UnknownKeySuggestsClosest) {
    ParamSet set(counterTable());
    try {
        set.setFromAssignment("dynamics.rte=1");
        FAIL();
    } catch (const ParameterError& e) {
        EXPECT_NE(std::string(e.what()).find("did you mean 'dynamics.rate'"), std::string::npos)
            << e.what();
    }
}

TEST(Params, IntegerAcceptedForReal) {
    ParamSet set(counterTable());
    set.set("dynamics.rate", ParamValue{std::int64_t{3}});
    EXPECT_EQ(set.real("dynamics.rate"), 3.0);
}

TEST(Params, FormatValueRoundTrips) {
    for (double v : {0.1, 1e-300, 1.0 / 3.0, 6.02214076e23, -2.5}) {
        const std::string text = formatValue(v);
        EXPECT_EQ(std::stod(text), v) << text;
    }
    EXPECT_EQ(formatValue(ParamValue{true}), "true");
    EXPECT_EQ(formatValue(ParamValue{std::int64_t{-7}}), "-7");
}

TEST(Params, DescribeListsEveryParameterWithUnitsAndMutability) {
    const std::string text = describeParameters(counterTable());
    for (const ParamSpec& s : counterTable().specs()) {
        EXPECT_NE(text.find(s.key()), std::string::npos) << s.key();
        EXPECT_NE(text.find(s.description), std::string::npos);
    }
    EXPECT_NE(text.find("structural"), std::string::npos);
    EXPECT_NE(text.find("live"), std::string::npos);
    EXPECT_NE(text.find("1/step"), std::string::npos);
}

TEST(Params, DuplicateDeclarationIsRejected) {
    struct P {
        double a;
    };
    ParamTableBuilder<P> b;
    b.real("g", "a", &P::a, 1.0, 0.0, 2.0, "1", "first", Mutability::Live);
    b.real("g", "a", &P::a, 1.0, 0.0, 2.0, "1", "again", Mutability::Live);
    EXPECT_THROW(b.build(), ParameterError);
}

TEST(Params, DefaultOutsideRangeIsRejected) {
    struct P {
        double a;
    };
    ParamTableBuilder<P> b;
    b.real("g", "a", &P::a, 5.0, 0.0, 2.0, "1", "bad default", Mutability::Live);
    EXPECT_THROW(b.build(), ParameterError);
}

// ---- text parameters ----------------------------------------------------------------------

using test::TextParams;
using test::textTable;

// Expects ParameterError whose message contains every one of `parts`.
template <typename F>
void expectParameterError(F&& f, std::initializer_list<std::string> parts) {
    try {
        f();
        FAIL() << "expected ParameterError";
    } catch (const ParameterError& e) {
        const std::string msg = e.what();
        for (const std::string& p : parts)
            EXPECT_NE(msg.find(p), std::string::npos) << "'" << p << "' not in: " << msg;
    }
}

TEST(TextParams, DefaultsFillStringMembers) {
    const ParamSet set(textTable());
    const auto p = set.toStruct<TextParams>();
    EXPECT_EQ(p.network, "A + B -> C @ 1e5\nC -> A + B @ 2");
    EXPECT_EQ(p.species, "A, B, C");
    EXPECT_EQ(p.input, "");
    EXPECT_EQ(set.text("reactions.species"), "A, B, C");
    const ParamSpec& input = textTable().at("io.input");
    EXPECT_EQ(input.type, ParamType::Text);
    EXPECT_EQ(input.textKind, TextKind::FilePath);
    EXPECT_EQ(input.mutability, Mutability::Structural);
    EXPECT_EQ(textTable().at("reactions.species").mutability, Mutability::Live);
    EXPECT_EQ(input.rangeText(), "file path");
    EXPECT_EQ(textTable().at("reactions.network").rangeText(), "text");
    EXPECT_EQ(toString(ParamType::Text), "text");
}

TEST(TextParams, AssignmentKeepsTheTextVerbatim) {
    ParamSet set(textTable());
    // Only the first '=' separates key and value; spaces, '@', quotes and '=' are text.
    set.setFromAssignment("reactions.species= A = \"B\", C\\D ");
    EXPECT_EQ(set.text("reactions.species"), " A = \"B\", C\\D ");
    set.setFromAssignment("reactions.network=X -> Y @ 3\n\tY -> X @ 4\n");
    EXPECT_EQ(set.toStruct<TextParams>().network, "X -> Y @ 3\n\tY -> X @ 4\n");
    set.setFromAssignment("reactions.species=");
    EXPECT_EQ(set.text("reactions.species"), "");
    // formatValue gives the text back as it is: what parseValue reads.
    const ParamSpec& spec = textTable().at("reactions.network");
    const ParamValue v = std::string("a\n\"b\"\\c");
    EXPECT_EQ(parseValue(spec, formatValue(v)), v);
    // Unicode is text like any other.
    set.setFromAssignment("reactions.species=Ca²⁺, µ-opioid, 受体");
    EXPECT_EQ(set.text("reactions.species"), "Ca²⁺, µ-opioid, 受体");
}

TEST(TextParams, ControlCharactersAreRejectedNamingKeyAndPlace) {
    ParamSet set(textTable());
    expectParameterError(
        [&] { set.set("reactions.network", std::string("A -> B\nB\a -> C")); },
        {"'reactions.network'", "U+0007", "byte 8", "line 2", "only newline and tab"});
    expectParameterError([&] { set.set("reactions.species", std::string("A\rB")); },
                         {"'reactions.species'", "U+000D"});
    expectParameterError([&] { set.set("reactions.species", std::string("A\x7f")); },
                         {"'reactions.species'", "U+007F"});
    expectParameterError([&] { set.set("reactions.species", std::string("A\0B", 3)); },
                         {"'reactions.species'", "U+0000"});
    // A file path is one line: newline and tab are refused there too.
    expectParameterError([&] { set.set("io.input", std::string("a\nb.bin")); },
                         {"'io.input'", "U+000A", "file path is one line"});
    expectParameterError([&] { set.setFromAssignment("io.input=x\ty"); }, {"'io.input'"});
    // Nothing was stored by the rejected edits.
    EXPECT_EQ(set, ParamSet(textTable()));
    // Tabs and newlines are fine in free text.
    set.set("reactions.network", std::string("A\t-> B\n"));
    EXPECT_EQ(set.text("reactions.network"), "A\t-> B\n");
}

TEST(TextParams, InvalidUtf8IsRejected) {
    ParamSet set(textTable());
    // A stray continuation byte, a truncated sequence, an overlong '/', a UTF-16 surrogate,
    // and a code point above U+10FFFF.
    for (const std::string bad :
         {"a\x80", "ab\xc3", "\xc0\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80"})
        expectParameterError([&] { set.set("reactions.species", bad); },
                             {"'reactions.species'", "not valid UTF-8"});
    // The edges around the excluded ranges pass: U+07FF, U+D7FF (below the surrogates),
    // U+E000 (above them), U+10FFFF.
    const std::string edges = "\xdf\xbf \xed\x9f\xbf \xee\x80\x80 \xf4\x8f\xbf\xbf";
    set.set("reactions.species", edges);
    EXPECT_EQ(set.text("reactions.species"), edges);
}

TEST(TextParams, LengthLimit) {
    ParamSet set(textTable());
    set.set("reactions.network", std::string(kMaxTextBytes, 'x'));
    EXPECT_EQ(set.text("reactions.network").size(), kMaxTextBytes);
    expectParameterError([&] { set.set("reactions.network", std::string(kMaxTextBytes + 1, 'x')); },
                         {"'reactions.network'", "65537 bytes", "at most 65536"});
}

TEST(TextParams, WrongTypeAndBadDefaultsAreRejected) {
    ParamSet set(textTable());
    expectParameterError([&] { set.set("reactions.species", ParamValue{1.5}); },
                         {"'reactions.species'", "expects a text value", "real 1.5"});
    struct P {
        std::string s;
    };
    ParamTableBuilder<P> b;
    b.text("g", "s", &P::s, "bell\a", "a default with a control character", Mutability::Structural);
    expectParameterError([&] { b.build(); }, {"'g.s'", "U+0007"});
}

TEST(TextParams, SummaryIsOneLineAndCutAtCharacters) {
    EXPECT_EQ(summarizeValue(std::string("a\nb\tc\\d")), "a\\nb\\tc\\\\d");
    EXPECT_EQ(summarizeValue(std::string("abcdefgh"), 5), "abcde...");
    EXPECT_EQ(summarizeValue(std::string("abcde"), 5), "abcde");
    // Cut between characters, never inside a UTF-8 sequence (µ is two bytes).
    EXPECT_EQ(summarizeValue(std::string("µµµµ"), 3), "µµµ...");
    EXPECT_EQ(summarizeValue(ParamValue{0.25}), "0.25");
}

TEST(TextParams, DescribeQuotesTextDefaultsOnOneLine) {
    const std::string text = describeParameters(textTable());
    EXPECT_NE(text.find("\"A + B -> C @ 1e5\\nC -> A + B @ 2\""), std::string::npos) << text;
    EXPECT_NE(text.find("\"A, B, C\""), std::string::npos) << text;
    EXPECT_NE(text.find("default \"\""), std::string::npos) << text;  // the empty path
    EXPECT_NE(text.find("file path"), std::string::npos) << text;
    // Two lines per parameter (head, description) and one per group: the multi-line
    // default did not break the table.
    const auto lines = std::count(text.begin(), text.end(), '\n');
    EXPECT_EQ(lines, 2 * 4 + 2) << text;
}

}  // namespace
}  // namespace cf
