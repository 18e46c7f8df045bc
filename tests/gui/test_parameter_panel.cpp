// SPDX-License-Identifier: GPL-3.0-or-later
// The parameter dock, driven through its widgets (offscreen): every edit reaches the apply
// function with the exact value, rejected values revert, undo/redo replay the old and new
// values, slider drags make one undo entry, resets apply the defaults, search filters.
#include <gtest/gtest.h>

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QTest>
#include <QToolButton>
#include <QUndoStack>
#include <chrono>
#include <cmath>
#include <stdexcept>

#include "gui/parameter_editors.hpp"
#include "gui/parameter_panel.hpp"
#include "gui/parameter_slider_scale.hpp"
#include "sim/core/errors.hpp"
#include "sim/core/model.hpp"

namespace cf::gui {
namespace {

struct DemoParams {
    double dt;
    double diffusion;
    double stiffness;
    double box;
    std::int32_t count;
    std::int32_t substeps;
    bool periodic;
    std::int32_t method;
};

// All four types, live and structural, linear and logarithmic ranges.
const ParamTable& demoTable() {
    static const ParamTable t = [] {
        using P = DemoParams;
        ParamTableBuilder<P> b;
        b.real("dynamics", "dt", &P::dt, 1.0e-3, 1.0e-7, 1.0, "s", "Time step", Mutability::Live);
        b.real("dynamics", "diffusion", &P::diffusion, 20.0, 0.0, 100.0, "um^2/s",
               "Diffusion coefficient of the particles", Mutability::Live);
        b.real("dynamics", "stiffness", &P::stiffness, 10.0, 0.0, 1.0e4, "pN/um",
               "Spring constant between overlapping particles", Mutability::Live);
        b.real("system", "box", &P::box, 32.0, 1.0, 100.0, "um", "Edge of the periodic box",
               Mutability::Structural);
        b.integer("system", "count", &P::count, 100, 1, 1'000'000, "1", "Number of particles",
                  Mutability::Structural);
        b.integer("system", "substeps", &P::substeps, 4, 1, 16, "1", "Substeps per step",
                  Mutability::Live);
        b.boolean("output", "periodic", &P::periodic, true, "Wrap positions into the box",
                  Mutability::Live);
        b.choice("output", "method", &P::method, {"naive", "grid"}, "grid",
                 "Neighbour search method", Mutability::Structural);
        return b.build();
    }();
    return t;
}

struct Call {
    std::string key;
    ParamValue value;
};

class ParameterPanelTest : public ::testing::Test {
protected:
    void SetUp() override {
        panel.setParameters(demoTable(), ParamSet(demoTable()));
        panel.setApplyFunction([this](const std::string& key, const ParamValue& value) {
            if (key == "dynamics.diffusion" && std::get<double>(value) > 50.0)
                throw ParameterError("parameter 'dynamics.diffusion' = " + formatValue(value) +
                                     " is unstable with this time step: allowed up to 50");
            if (key == "system.substeps" && std::get<std::int64_t>(value) == 13)
                throw std::runtime_error("13 substeps are unlucky");
            calls.push_back({key, value});
        });
        panel.resize(520, 640);
    }
    template <typename W>
    W* widget(const std::string& name) {
        auto* w = panel.findChild<W*>(QString::fromStdString(name));
        EXPECT_NE(w, nullptr) << name;
        return w;
    }
    QSlider* slider(const std::string& key) { return widget<QSlider>("slider:" + key); }
    QDoubleSpinBox* real(const std::string& key) { return widget<QDoubleSpinBox>("spin:" + key); }
    QSpinBox* integer(const std::string& key) { return widget<QSpinBox>("spin:" + key); }
    SliderScale scale(const std::string& key) { return SliderScale::forSpec(demoTable().at(key)); }

    ParameterPanel panel;
    std::vector<Call> calls;
};

TEST_F(ParameterPanelTest, BuildsOneRowPerParameterWithUnitsAndTooltips) {
    for (const ParamSpec& s : demoTable().specs())
        EXPECT_NE(panel.findChild<QLabel*>(QString::fromStdString("name:" + s.key())), nullptr);
    // Sections in declaration order, top to bottom.
    panel.show();
    const int yDynamics = widget<QWidget>("section:dynamics")->y();
    const int ySystem = widget<QWidget>("section:system")->y();
    const int yOutput = widget<QWidget>("section:output")->y();
    EXPECT_LT(yDynamics, ySystem);
    EXPECT_LT(ySystem, yOutput);

    EXPECT_EQ(widget<QLabel>("unit:dynamics.dt")->text(), "s");
    EXPECT_EQ(widget<QLabel>("unit:dynamics.diffusion")->text(), QString::fromUtf8("µm²/s"));
    EXPECT_EQ(widget<QLabel>("unit:system.box")->text(), QString::fromUtf8("µm"));
    EXPECT_EQ(widget<QLabel>("unit:system.count")->text(), "");  // dimensionless

    const QString tip = real("dynamics.dt")->toolTip();
    EXPECT_TRUE(tip.contains("Time step"));
    EXPECT_TRUE(tip.contains("[1e-07, 1] s"));  // rangeText()
    EXPECT_TRUE(tip.contains("Default: 0.001"));
    EXPECT_TRUE(tip.contains("live: applies at the next step"));
    EXPECT_EQ(widget<QLabel>("name:dynamics.dt")->toolTip(), tip);
    EXPECT_EQ(slider("dynamics.dt")->toolTip(), tip);
    EXPECT_TRUE(
        integer("system.count")->toolTip().contains("structural: applies at the next reset"));
    EXPECT_TRUE(widget<QComboBox>("combo:output.method")->toolTip().contains("one of: naive grid"));

    // Structural rows carry an "at reset" tag, live rows none. It is plain text, neither
    // framed nor filled like the buttons beside it.
    EXPECT_EQ(widget<QLabel>("tag:system.count")->text(), "at reset");
    for (const QString& style : {widget<QLabel>("tag:system.count")->styleSheet()}) {
        EXPECT_FALSE(style.contains("border")) << style.toStdString();
        EXPECT_FALSE(style.contains("background")) << style.toStdString();
    }
    EXPECT_EQ(panel.findChild<QLabel*>("tag:dynamics.dt"), nullptr);

    // Initial values.
    EXPECT_EQ(real("dynamics.dt")->value(), 1.0e-3);
    EXPECT_EQ(real("dynamics.dt")->text(), "0.001");
    EXPECT_EQ(integer("system.count")->value(), 100);
    EXPECT_TRUE(widget<QCheckBox>("check:output.periodic")->isChecked());
    EXPECT_EQ(widget<QComboBox>("combo:output.method")->currentText(), "grid");
    EXPECT_EQ(slider("dynamics.dt")->value(), scale("dynamics.dt").positionOf(1.0e-3));
    EXPECT_EQ(slider("dynamics.dt")->value(), 571);  // 4 of 7 decades, 1000 positions
}

TEST_F(ParameterPanelTest, SpinBoxEditCallsApplyWithTheExactValue) {
    QSignalSpy edited(&panel, &ParameterPanel::parameterEdited);
    real("dynamics.dt")->setValue(0.0025);
    ASSERT_EQ(calls.size(), 1u);
    EXPECT_EQ(calls[0].key, "dynamics.dt");
    EXPECT_EQ(std::get<double>(calls[0].value), 0.0025);  // exact, no rounding to decimals
    EXPECT_EQ(panel.values().real("dynamics.dt"), 0.0025);
    EXPECT_EQ(panel.undoStack()->count(), 1);
    ASSERT_EQ(edited.count(), 1);
    EXPECT_EQ(edited[0][0].toString(), "dynamics.dt");
    EXPECT_EQ(edited[0][1].toString(), "0.0025");
    // The slider follows the spin box.
    EXPECT_EQ(slider("dynamics.dt")->value(), scale("dynamics.dt").positionOf(0.0025));

    // Typed in scientific notation, committed with Enter.
    auto* line = real("dynamics.dt")->findChild<QLineEdit*>();
    ASSERT_NE(line, nullptr);
    line->selectAll();
    QTest::keyClicks(line, "3.5e-6");
    QTest::keyClick(line, Qt::Key_Return);
    ASSERT_EQ(calls.size(), 2u);
    EXPECT_EQ(std::get<double>(calls[1].value), 3.5e-6);
    EXPECT_EQ(real("dynamics.dt")->text(), "3.5e-06");

    // Integer spin box: exact int64.
    integer("system.substeps")->setValue(7);
    ASSERT_EQ(calls.size(), 3u);
    EXPECT_EQ(std::get<std::int64_t>(calls[2].value), 7);
}

TEST_F(ParameterPanelTest, SpinBoxStepsByTheSecondSignificantDigit) {
    auto* spin = real("dynamics.dt");
    spin->stepBy(1);
    EXPECT_DOUBLE_EQ(std::get<double>(calls.back().value), 1.1e-3);
    spin->setValue(1.0e-3);
    spin->stepBy(-1);  // below a power of ten the grid is finer
    EXPECT_DOUBLE_EQ(std::get<double>(calls.back().value), 0.99e-3);
}

TEST_F(ParameterPanelTest, SliderEndsAreMinAndMaxAndWideRangesAreLogarithmic) {
    // Logarithmic (min > 0, max/min = 1e7): middle position = geometric mean. Values are
    // rounded to 3 significant digits (the resolution of 1000 positions over 7 decades is
    // 1.6 % per position), so the tolerance is half a unit of the third digit: 0.5 %.
    auto* dt = slider("dynamics.dt");
    EXPECT_TRUE(scale("dynamics.dt").logarithmic());
    dt->setValue(dt->minimum());
    EXPECT_EQ(std::get<double>(calls.back().value), 1.0e-7);
    dt->setValue(dt->maximum());
    EXPECT_EQ(std::get<double>(calls.back().value), 1.0);
    dt->setValue((dt->minimum() + dt->maximum()) / 2);
    const double geometricMean = std::sqrt(1.0e-7 * 1.0);
    EXPECT_NEAR(std::get<double>(calls.back().value), geometricMean, 0.005 * geometricMean);
    EXPECT_EQ(real("dynamics.dt")->value(), std::get<double>(calls.back().value));

    // Linear (min = 0, default not far below max): middle = arithmetic mean, exactly.
    auto* diffusion = slider("dynamics.diffusion");
    EXPECT_EQ(scale("dynamics.diffusion").mode(), SliderScale::Mode::Linear);
    diffusion->setValue(diffusion->maximum());
    EXPECT_TRUE(panel.errorText("dynamics.diffusion").contains("unstable"));  // 100 > 50
    diffusion->setValue(diffusion->minimum());
    EXPECT_EQ(std::get<double>(calls.back().value), 0.0);
    diffusion->setValue(diffusion->maximum() / 2);
    EXPECT_EQ(std::get<double>(calls.back().value), 50.0);

    // Zero-anchored logarithmic (min = 0, default 10 in [0, 1e4]): position 0 is exactly 0,
    // position 1 is default/100, the end is max; the default sits near 40 % (log(10/0.1) /
    // log(1e4/0.1) = 0.4), not at 0.1 % as on a linear scale.
    auto* stiffness = slider("dynamics.stiffness");
    const SliderScale st = scale("dynamics.stiffness");
    EXPECT_EQ(st.mode(), SliderScale::Mode::ZeroLog);
    EXPECT_EQ(stiffness->value(), st.positionOf(10.0));
    EXPECT_NEAR(stiffness->value(), 400, 2);
    stiffness->setValue(stiffness->maximum());
    EXPECT_EQ(std::get<double>(calls.back().value), 1.0e4);
    stiffness->setValue(0);
    EXPECT_EQ(std::get<double>(calls.back().value), 0.0);
    stiffness->setValue(1);
    EXPECT_EQ(std::get<double>(calls.back().value), 0.1);
    // Every position maps back to itself (the rounding keeps positions apart).
    for (int p = 0; p <= st.positions(); ++p)
        ASSERT_EQ(st.positionOf(st.valueAt(p)), p) << p;
    for (int p = 0; p <= scale("dynamics.dt").positions(); ++p)
        ASSERT_EQ(scale("dynamics.dt").positionOf(scale("dynamics.dt").valueAt(p)), p) << p;

    // Integers: a wide range is logarithmic and rounded; a narrow one has a position per value.
    auto* count = slider("system.count");
    count->setValue(count->maximum());
    EXPECT_EQ(std::get<std::int64_t>(calls.back().value), 1'000'000);
    count->setValue(count->maximum() / 2);
    EXPECT_EQ(std::get<std::int64_t>(calls.back().value), 1000);  // sqrt(1 * 1e6)
    auto* substeps = slider("system.substeps");
    EXPECT_EQ(substeps->maximum() - substeps->minimum(), 15);
    substeps->setValue(substeps->minimum() + 5);
    EXPECT_EQ(std::get<std::int64_t>(calls.back().value), 6);
}

TEST_F(ParameterPanelTest, RejectedValueRevertsTheWidgetAndReportsTheMessage) {
    QSignalSpy rejected(&panel, &ParameterPanel::editRejected);
    auto* spin = real("dynamics.diffusion");
    spin->setValue(60.0);
    EXPECT_TRUE(calls.empty());
    EXPECT_EQ(spin->value(), 20.0);  // back to the last good value
    EXPECT_EQ(slider("dynamics.diffusion")->value(), scale("dynamics.diffusion").positionOf(20.0));
    EXPECT_EQ(panel.values().real("dynamics.diffusion"), 20.0);
    EXPECT_EQ(panel.undoStack()->count(), 0);
    ASSERT_EQ(rejected.count(), 1);
    const QString message = rejected[0][0].toString();
    EXPECT_TRUE(message.contains("dynamics.diffusion"));
    EXPECT_TRUE(message.contains("allowed up to 50"));
    EXPECT_EQ(panel.errorText("dynamics.diffusion"), message);
    auto* marker = widget<QLabel>("marker:dynamics.diffusion");
    EXPECT_EQ(marker->text(), "!");
    EXPECT_EQ(marker->toolTip(), message);
    EXPECT_TRUE(spin->toolTip().contains("Rejected"));
    EXPECT_TRUE(panel.editHistory().empty());

    // Any std::exception is a rejection too; a message that does not name the parameter,
    // the value and the range gets them.
    integer("system.substeps")->setValue(13);
    ASSERT_EQ(rejected.count(), 2);
    EXPECT_EQ(rejected[1][0].toString(),
              "parameter 'system.substeps' = 13 was refused: 13 substeps are unlucky "
              "(allowed [1, 16])");
    EXPECT_EQ(integer("system.substeps")->value(), 4);

    // A good value clears the marker.
    spin->setValue(30.0);
    ASSERT_EQ(calls.size(), 1u);
    EXPECT_EQ(std::get<double>(calls[0].value), 30.0);
    EXPECT_TRUE(panel.errorText("dynamics.diffusion").isEmpty());
    EXPECT_TRUE(marker->text().isEmpty());
    EXPECT_FALSE(spin->toolTip().contains("Rejected"));
}

TEST_F(ParameterPanelTest, UndoAndRedoApplyOldAndNewValuesInOrder) {
    auto* spin = real("dynamics.dt");
    spin->setValue(0.002);
    spin->setValue(0.003);
    ASSERT_EQ(panel.undoStack()->count(), 2);
    calls.clear();
    QSignalSpy edited(&panel, &ParameterPanel::parameterEdited);
    panel.undoStack()->undo();
    EXPECT_EQ(spin->value(), 0.002);
    panel.undoStack()->undo();
    EXPECT_EQ(spin->value(), 0.001);
    panel.undoStack()->redo();
    panel.undoStack()->redo();
    EXPECT_EQ(spin->value(), 0.003);
    ASSERT_EQ(calls.size(), 4u);
    const double expected[] = {0.002, 0.001, 0.002, 0.003};
    for (int i = 0; i < 4; ++i) {
        EXPECT_EQ(calls[i].key, "dynamics.dt");
        EXPECT_EQ(std::get<double>(calls[i].value), expected[i]) << i;
    }
    EXPECT_EQ(edited.count(), 4);

    const auto history = panel.editHistory();
    ASSERT_EQ(history.size(), 6u);
    const ParamEdit::Kind kinds[] = {ParamEdit::Kind::Edit, ParamEdit::Kind::Edit,
                                     ParamEdit::Kind::Undo, ParamEdit::Kind::Undo,
                                     ParamEdit::Kind::Redo, ParamEdit::Kind::Redo};
    for (int i = 0; i < 6; ++i)
        EXPECT_EQ(history[i].kind, kinds[i]) << i;
    EXPECT_EQ(std::get<double>(history[0].oldValue), 0.001);
    EXPECT_EQ(std::get<double>(history[0].newValue), 0.002);
    EXPECT_EQ(std::get<double>(history[3].newValue), 0.001);
    EXPECT_FALSE(history[0].undone);  // redone since
    panel.undoStack()->undo();
    EXPECT_TRUE(panel.editHistory()[1].undone);
    const std::string json = panel.historyJson();
    EXPECT_NE(json.find("\"key\": \"dynamics.dt\", \"old\": 0.001, \"new\": 0.002, \"kind\": "
                        "\"edit\", \"undone\": false"),
              std::string::npos)
        << json;
    EXPECT_NE(json.find("\"kind\": \"undo\""), std::string::npos);
}

TEST_F(ParameterPanelTest, UndoThatIsRejectedIsDroppedFromTheStack) {
    real("dynamics.diffusion")->setValue(40.0);
    real("dynamics.diffusion")->setValue(30.0);
    // The model now refuses 40 (say, after a time-step change): the undo cannot happen.
    panel.setApplyFunction([](const std::string&, const ParamValue& v) {
        if (std::get<double>(v) == 40.0) throw ParameterError("40 is no longer allowed");
    });
    QSignalSpy rejected(&panel, &ParameterPanel::editRejected);
    panel.undoStack()->undo();
    EXPECT_EQ(rejected.count(), 1);
    EXPECT_EQ(real("dynamics.diffusion")->value(), 30.0);
    EXPECT_EQ(panel.undoStack()->count(), 1);  // the failed command is gone
    panel.undoStack()->undo();
    EXPECT_EQ(real("dynamics.diffusion")->value(), 20.0);
}

TEST_F(ParameterPanelTest, SliderDragMakesOneUndoEntryAndAppliesTheFinalPosition) {
    auto* s = slider("dynamics.dt");
    const SliderScale sc = scale("dynamics.dt");
    const auto start = std::chrono::steady_clock::now();
    s->setSliderDown(true);  // what a mouse press on the handle does
    for (int p = 300; p <= 700; p += 2)
        s->setValue(p);
    s->setSliderDown(false);
    const auto elapsedMs = std::chrono::duration_cast<std::chrono::milliseconds>(
                               std::chrono::steady_clock::now() - start)
                               .count();
    EXPECT_EQ(panel.undoStack()->count(), 1);
    ASSERT_FALSE(calls.empty());
    EXPECT_EQ(std::get<double>(calls.back().value), sc.valueAt(700));
    EXPECT_EQ(real("dynamics.dt")->value(), sc.valueAt(700));
    // 201 moves; applies at most once per 50 ms, plus the first and the final one.
    EXPECT_LE(static_cast<long>(calls.size()), elapsedMs / 50 + 2) << elapsedMs << " ms";
    EXPECT_LT(calls.size(), 201u);
    ASSERT_EQ(panel.editHistory().size(), 1u);
    EXPECT_EQ(std::get<double>(panel.editHistory()[0].oldValue), 1.0e-3);

    // A slow drag applies while dragging (the model follows the slider).
    calls.clear();
    s->setSliderDown(true);
    for (int p = 600; p >= 400; p -= 50) {
        s->setValue(p);
        QTest::qWait(70);  // longer than the rate limit: the timer applies each position
    }
    EXPECT_EQ(calls.size(), 5u);
    s->setSliderDown(false);
    EXPECT_EQ(calls.size(), 5u);  // the final position was already applied
    EXPECT_EQ(panel.undoStack()->count(), 2);

    // Undo goes back to the value before the drag in one step.
    calls.clear();
    panel.undoStack()->undo();
    ASSERT_EQ(calls.size(), 1u);
    EXPECT_EQ(std::get<double>(calls[0].value), sc.valueAt(700));
    panel.undoStack()->undo();
    EXPECT_EQ(std::get<double>(calls.back().value), 1.0e-3);
}

TEST_F(ParameterPanelTest, DragIntoARejectedRangeReportsOnceAndKeepsTheLastGoodValue) {
    QSignalSpy rejected(&panel, &ParameterPanel::editRejected);
    auto* s = slider("dynamics.diffusion");  // linear [0, 100]; the apply refuses > 50
    s->setSliderDown(true);
    s->setValue(300);  // 30: applied at once
    QTest::qWait(70);
    for (int p = 600; p <= 800; p += 100) {  // 60..80: refused, quietly while dragging
        s->setValue(p);
        QTest::qWait(70);
    }
    EXPECT_EQ(rejected.count(), 0);
    EXPECT_FALSE(panel.errorText("dynamics.diffusion").isEmpty());  // but the row shows it
    s->setSliderDown(false);
    ASSERT_EQ(rejected.count(), 1);  // the end position was refused
    EXPECT_TRUE(rejected[0][0].toString().contains("= 80 "));
    EXPECT_EQ(panel.values().real("dynamics.diffusion"), 30.0);
    EXPECT_EQ(real("dynamics.diffusion")->value(), 30.0);
    EXPECT_EQ(s->value(), 300);
    EXPECT_EQ(panel.undoStack()->count(), 1);  // 20 -> 30
    EXPECT_EQ(std::get<double>(calls.back().value), 30.0);
}

TEST_F(ParameterPanelTest, MouseDragOnTheSliderIsOneEdit) {
    panel.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&panel));
    auto* s = slider("dynamics.diffusion");
    s->setValue(0);  // handle at the left end (one undo entry)
    const int undoBefore = panel.undoStack()->count();
    calls.clear();
    const int y = s->height() / 2;
    QTest::mousePress(s, Qt::LeftButton, {}, QPoint(4, y));
    ASSERT_TRUE(s->isSliderDown()) << "press did not grab the handle";
    for (int x = 6; x < s->width() / 3; x += 3)
        QTest::mouseMove(s, QPoint(x, y), 1);
    QTest::mouseRelease(s, Qt::LeftButton, {}, QPoint(s->width() / 3, y));
    EXPECT_EQ(panel.undoStack()->count(), undoBefore + 1);
    ASSERT_FALSE(calls.empty());
    EXPECT_GT(std::get<double>(calls.back().value), 0.0);
    EXPECT_EQ(std::get<double>(calls.back().value),
              scale("dynamics.diffusion").valueAt(s->value()));
}

TEST_F(ParameterPanelTest, KeyboardSliderStepsMergeIntoOneUndoEntry) {
    auto* s = slider("system.substeps");
    for (int i = 0; i < 5; ++i)
        QTest::keyClick(s, Qt::Key_Right);
    EXPECT_EQ(calls.size(), 5u);  // each step is applied at once
    EXPECT_EQ(std::get<std::int64_t>(calls.back().value), 9);
    EXPECT_EQ(panel.undoStack()->count(), 1);
    ASSERT_EQ(panel.editHistory().size(), 1u);
    EXPECT_EQ(std::get<std::int64_t>(panel.editHistory()[0].newValue), 9);
    panel.undoStack()->undo();
    EXPECT_EQ(std::get<std::int64_t>(calls.back().value), 4);
}

TEST_F(ParameterPanelTest, CheckBoxAndComboApplyTheirValues) {
    widget<QCheckBox>("check:output.periodic")->setChecked(false);
    ASSERT_EQ(calls.size(), 1u);
    EXPECT_EQ(calls[0].key, "output.periodic");
    EXPECT_EQ(std::get<bool>(calls[0].value), false);
    widget<QComboBox>("combo:output.method")->setCurrentIndex(0);
    ASSERT_EQ(calls.size(), 2u);
    EXPECT_EQ(std::get<std::string>(calls[1].value), "naive");
    panel.undoStack()->undo();
    EXPECT_EQ(std::get<std::string>(calls.back().value), "grid");
    EXPECT_EQ(widget<QComboBox>("combo:output.method")->currentText(), "grid");
}

TEST_F(ParameterPanelTest, ResetButtonsApplyTheDefaults) {
    real("dynamics.dt")->setValue(0.01);
    real("dynamics.diffusion")->setValue(5.0);
    integer("system.count")->setValue(500);
    auto* rowReset = widget<QToolButton>("reset:dynamics.dt");
    EXPECT_TRUE(rowReset->isEnabled());
    EXPECT_FALSE(widget<QToolButton>("reset:system.substeps")->isEnabled());  // at default
    calls.clear();

    rowReset->click();
    ASSERT_EQ(calls.size(), 1u);
    EXPECT_EQ(calls[0].key, "dynamics.dt");
    EXPECT_EQ(std::get<double>(calls[0].value), 1.0e-3);
    EXPECT_FALSE(rowReset->isEnabled());

    widget<QToolButton>("groupReset:dynamics")->click();  // only diffusion differs
    ASSERT_EQ(calls.size(), 2u);
    EXPECT_EQ(calls[1].key, "dynamics.diffusion");
    EXPECT_EQ(std::get<double>(calls[1].value), 20.0);
    EXPECT_EQ(integer("system.count")->value(), 500);  // other groups untouched

    widget<QPushButton>("resetAll")->click();
    ASSERT_EQ(calls.size(), 3u);
    EXPECT_EQ(calls[2].key, "system.count");
    EXPECT_EQ(std::get<std::int64_t>(calls[2].value), 100);
    EXPECT_EQ(panel.values(), ParamSet(demoTable()));

    // Each reset is one undo step; undoing the group reset restores its values.
    EXPECT_EQ(panel.undoStack()->count(), 6);
    panel.undoStack()->undo();
    panel.undoStack()->undo();
    EXPECT_EQ(real("dynamics.diffusion")->value(), 5.0);
    EXPECT_EQ(panel.editHistory()[4].kind, ParamEdit::Kind::Reset);
    // Nothing to reset: no empty undo entry.
    const int count = panel.undoStack()->count();
    widget<QToolButton>("groupReset:output")->click();
    EXPECT_EQ(panel.undoStack()->count(), count);
}

TEST_F(ParameterPanelTest, SearchHidesNonMatchingRowsAndEmptyGroups) {
    auto hidden = [&](const std::string& name) {
        return !widget<QWidget>(name)->isVisibleTo(&panel);
    };
    panel.setFilter("DIFFUSION");  // case-insensitive, name
    EXPECT_FALSE(hidden("spin:dynamics.diffusion"));
    EXPECT_FALSE(hidden("slider:dynamics.diffusion"));
    EXPECT_TRUE(hidden("spin:dynamics.dt"));
    EXPECT_TRUE(hidden("slider:dynamics.dt"));
    EXPECT_FALSE(hidden("section:dynamics"));
    EXPECT_TRUE(hidden("section:system"));
    EXPECT_TRUE(hidden("section:output"));

    widget<QLineEdit>("search")->setText("neighbour");  // description only
    EXPECT_TRUE(hidden("section:dynamics"));
    EXPECT_FALSE(hidden("section:output"));
    EXPECT_FALSE(hidden("combo:output.method"));
    EXPECT_TRUE(hidden("check:output.periodic"));

    panel.setFilter("system.sub");  // key
    EXPECT_FALSE(hidden("spin:system.substeps"));
    EXPECT_TRUE(hidden("spin:system.count"));

    panel.setFilter("no such thing");
    EXPECT_FALSE(hidden("noMatch"));
    panel.setFilter("");
    for (const ParamSpec& s : demoTable().specs())
        EXPECT_FALSE(hidden("name:" + s.key())) << s.key();
    EXPECT_TRUE(hidden("noMatch"));
}

TEST_F(ParameterPanelTest, SetValueUpdatesWidgetsWithoutUndoOrApply) {
    panel.setValue("dynamics.dt", 0.01);
    panel.setValue("system.substeps", std::int64_t{9});
    panel.setValue("dynamics.diffusion", std::int64_t{3});  // integer for a real: converted
    panel.setValue("output.method", std::string("naive"));
    EXPECT_EQ(real("dynamics.dt")->value(), 0.01);
    EXPECT_EQ(slider("dynamics.dt")->value(), scale("dynamics.dt").positionOf(0.01));
    EXPECT_EQ(integer("system.substeps")->value(), 9);
    EXPECT_EQ(real("dynamics.diffusion")->value(), 3.0);
    EXPECT_EQ(widget<QComboBox>("combo:output.method")->currentText(), "naive");
    EXPECT_TRUE(calls.empty());
    EXPECT_EQ(panel.undoStack()->count(), 0);
    EXPECT_TRUE(panel.editHistory().empty());
    EXPECT_EQ(panel.values().real("dynamics.dt"), 0.01);
    EXPECT_THROW(panel.setValue("dynamics.dt", 2.0), ParameterError);  // out of range
    EXPECT_THROW(panel.setValue("dynamics.tdt", 0.1), ParameterError);
    EXPECT_EQ(real("dynamics.dt")->value(), 0.01);
}

TEST_F(ParameterPanelTest, StructuralEditsArePendingUntilApplied) {
    QSignalSpy pending(&panel, &ParameterPanel::pendingResetChanged);
    auto* spin = integer("system.count");
    auto* tag = widget<QLabel>("tag:system.count");
    EXPECT_FALSE(spin->font().italic());
    spin->setValue(500);
    EXPECT_TRUE(panel.hasPendingReset());
    EXPECT_EQ(panel.pendingKeys(), std::vector<std::string>{"system.count"});
    EXPECT_EQ(tag->text(), "pending");
    EXPECT_FALSE(tag->styleSheet().contains("background"));  // still no button
    EXPECT_TRUE(spin->font().italic());
    ASSERT_EQ(pending.count(), 1);
    EXPECT_TRUE(pending[0][0].toBool());
    // A live edit is never pending.
    real("dynamics.dt")->setValue(0.01);
    EXPECT_EQ(panel.pendingKeys().size(), 1u);

    panel.markApplied();  // the lead calls this after Runner::reset()
    EXPECT_FALSE(panel.hasPendingReset());
    EXPECT_EQ(tag->text(), "at reset");
    EXPECT_FALSE(spin->font().italic());
    ASSERT_EQ(pending.count(), 2);
    EXPECT_FALSE(pending[1][0].toBool());

    // Editing back to the applied value is not pending; setValue can make a value pending.
    spin->setValue(600);
    spin->setValue(500);
    EXPECT_FALSE(panel.hasPendingReset());
    panel.setValue("system.box", 50.0);
    EXPECT_TRUE(panel.hasPendingReset());
}

// The built-in models' tables, and pictures of the panel for a person to look at
// (written when CELLFORGE_PANEL_SHOTS names a directory).
TEST(ParameterPanelModels, BuildsEveryBuiltinModelTable) {
    const QString shots = qEnvironmentVariable("CELLFORGE_PANEL_SHOTS");
    const ModelRegistry registry = builtinModels();
    for (const ModelDescriptor& d : registry.all()) {
        const ParamTable& table = d.parameters();
        ParameterPanel panel;
        panel.setParameters(table, ParamSet(table));
        panel.setApplyFunction([&](const std::string& key, const ParamValue& v) {
            if (key == "dynamics.diffusion" && std::get<double>(v) > 500.0)
                throw ParameterError("parameter 'dynamics.diffusion' = " + formatValue(v) +
                                     " is out of range for this demonstration");
        });
        for (const ParamSpec& s : table.specs())
            EXPECT_NE(panel.findChild<QWidget*>(QString::fromStdString("name:" + s.key())), nullptr)
                << d.name << " " << s.key();
        EXPECT_EQ(panel.values(), ParamSet(table));
        if (shots.isEmpty()) continue;
        panel.resize(560, d.name == "brownian" ? 520 : 1600);
        panel.show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&panel));
        QTest::qWait(20);  // let the scroll area settle its scroll bars
        const QString base = QDir(shots).filePath(QString::fromStdString(d.name));
        panel.grab().save(base + "_panel.png");
        // A structural edit waiting for the reset, a rejected value, a live edit.
        const ParamSpec* structural = nullptr;
        for (const ParamSpec& s : table.specs())
            if (s.mutability == Mutability::Structural &&
                (s.type == ParamType::Integer || s.type == ParamType::Real) && !structural)
                structural = &s;
        if (structural) {
            if (auto* spin =
                    panel.findChild<QSpinBox*>(QString::fromStdString("spin:" + structural->key())))
                spin->setValue(spin->value() * 2);
            if (auto* spin = panel.findChild<QDoubleSpinBox*>(
                    QString::fromStdString("spin:" + structural->key())))
                spin->setValue(spin->value() * 2);
        }
        if (auto* spin = panel.findChild<QDoubleSpinBox*>("spin:dynamics.diffusion"))
            spin->setValue(900.0);
        if (auto* spin = panel.findChild<QDoubleSpinBox*>("spin:dynamics.dt"))
            spin->setValue(2.5e-4);
        QTest::qWait(20);
        panel.grab().save(base + "_panel_edited.png");
        panel.setFilter("dist");
        QTest::qWait(20);
        panel.grab().save(base + "_panel_search.png");
        panel.setFilter("");
        panel.resize(380, 520);  // a narrow dock
        QTest::qWait(20);
        panel.grab().save(base + "_panel_narrow.png");
    }
}

// At its fitting width (the width the window gives the dock at first start) every column of
// every built-in model's rows is in view without scrolling sideways: the refusal marker,
// the row's reset button and the group's. Checked with the structural booleans pending (the
// longer tag). The width stays under 448 px, so that on a 1280x720 screen (a window of
// 1088 px, the dock at most 42 % of it, 456 px, less the window's 8 px of slack) it is the
// dock's default width.
TEST(ParameterPanelModels, EveryColumnIsInViewAtTheFittingWidth) {
    const ModelRegistry registry = builtinModels();
    for (const ModelDescriptor& d : registry.all()) {
        const ParamTable& table = d.parameters();
        ParameterPanel panel;
        panel.setParameters(table, ParamSet(table));
        panel.setApplyFunction([](const std::string&, const ParamValue&) {});
        for (const ParamSpec& s : table.specs())
            if (s.mutability == Mutability::Structural && s.type == ParamType::Boolean)
                panel.edit(s.key(), !std::get<bool>(s.defaultValue));
        const int width = panel.fittingWidth();
        EXPECT_LE(width, 448) << d.name;
        panel.resize(width, 700);
        panel.show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&panel));
        QTest::qWait(20);
        auto* scroll = panel.findChild<QScrollArea*>();
        ASSERT_NE(scroll, nullptr);
        EXPECT_FALSE(scroll->horizontalScrollBar()->isVisible())
            << d.name << ": the rows are wider than the dock at " << width << " px";
        const QRect view = scroll->viewport()->rect();
        auto inView = [&](const QString& name) {
            auto* w = panel.findChild<QWidget*>(name);
            if (w == nullptr || !w->isVisibleTo(&panel)) return;  // an absent or hidden row
            const QRect r(w->mapTo(scroll->viewport(), QPoint(0, 0)), w->size());
            EXPECT_GE(r.left(), view.left()) << d.name << " " << name.toStdString();
            EXPECT_LE(r.right(), view.right()) << d.name << " " << name.toStdString() << " ends at "
                                               << r.right() << " of " << view.right();
        };
        for (const ParamSpec& s : table.specs()) {
            inView(QString::fromStdString("reset:" + s.key()));
            inView(QString::fromStdString("marker:" + s.key()));
        }
        for (const std::string& g : table.groups())
            inView(QString::fromStdString("groupReset:" + g));
    }
}

}  // namespace
}  // namespace cf::gui

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
