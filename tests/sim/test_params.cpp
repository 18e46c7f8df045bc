// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include "sim/core/params.hpp"
#include "tests/support/counter_model.hpp"

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
    b.real("g", "a", &P::a, 1.0, 0.0, 2.0, "1", "first");
    b.real("g", "a", &P::a, 1.0, 0.0, 2.0, "1", "again");
    EXPECT_THROW(b.build(), ParameterError);
}

TEST(Params, DefaultOutsideRangeIsRejected) {
    struct P {
        double a;
    };
    ParamTableBuilder<P> b;
    b.real("g", "a", &P::a, 5.0, 0.0, 2.0, "1", "bad default");
    EXPECT_THROW(b.build(), ParameterError);
}

}  // namespace
}  // namespace cf
