// SPDX-License-Identifier: GPL-3.0-or-later
// Refusals in the parameter dock (issue 22): a typed value outside the range is refused with
// the range, never clamped; a refusal that arrives later through the apply's future marks the
// row, puts back the value in effect and leaves no undo or history entry for the edit.
#include <gtest/gtest.h>

#include <QApplication>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTest>
#include <QUndoStack>
#include <future>
#include <map>

#include "gui/parameter_panel.hpp"
#include "sim/core/errors.hpp"
#include "sim/core/params.hpp"

namespace cf::gui {
namespace {

struct RefusalParams {
    double rate;
    double diffusion;
    std::int32_t substeps;
};

const ParamTable& refusalTable() {
    static const ParamTable t = [] {
        using P = RefusalParams;
        ParamTableBuilder<P> b;
        b.real("growth", "rate", &P::rate, 300.0, 0.0, 1e9, "um^3/h", "Volume growth rate",
               Mutability::Live);
        b.real("growth", "diffusion", &P::diffusion, 20.0, 0.0, 100.0, "um^2/s", "Diffusion",
               Mutability::Live);
        b.integer("growth", "substeps", &P::substeps, 4, 1, 16, "1", "Substeps per step",
                  Mutability::Live);
        return b.build();
    }();
    return t;
}

// Types `text` into a spin box's field and presses Enter, as a person would.
void typeInto(QAbstractSpinBox* box, const QString& text) {
    auto* line = box->findChild<QLineEdit*>();
    ASSERT_NE(line, nullptr);
    line->selectAll();
    QTest::keyClicks(line, text);
    QTest::keyClick(line, Qt::Key_Return);
}

class RefusalTest : public ::testing::Test {
protected:
    void SetUp() override {
        panel.setParameters(refusalTable(), ParamSet(refusalTable()));
        // Like Runner::setParameter: every apply returns a future the test settles later
        // (or at once, for the keys in `immediate`).
        panel.setApplyFunction([this](const std::string& key, const ParamValue& value) {
            calls.push_back({key, value});
            std::promise<void> p;
            std::future<void> f = p.get_future();
            if (immediate) {
                inEffect[key] = value;
                p.set_value();
            } else {
                promises.push_back(std::move(p));
            }
            return f;
        });
        panel.setInEffectFunction([this](const std::string& key) { return inEffect.at(key); });
        for (const ParamSpec& s : refusalTable().specs())
            inEffect[s.key()] = s.defaultValue;
        panel.resize(520, 400);
    }
    QDoubleSpinBox* real(const std::string& key) {
        return panel.findChild<QDoubleSpinBox*>(QString::fromStdString("spin:" + key));
    }
    QSpinBox* integer(const std::string& key) {
        return panel.findChild<QSpinBox*>(QString::fromStdString("spin:" + key));
    }
    QLabel* marker(const std::string& key) {
        return panel.findChild<QLabel*>(QString::fromStdString("marker:" + key));
    }

    ParameterPanel panel;
    std::vector<std::pair<std::string, ParamValue>> calls;
    std::vector<std::promise<void>> promises;
    std::map<std::string, ParamValue> inEffect;  // what the "simulation" runs with
    bool immediate = true;
};

TEST_F(RefusalTest, TypedValueOutOfRangeIsRefusedWithTheRangeNotClamped) {
    QSignalSpy rejected(&panel, &ParameterPanel::editRejected);
    QDoubleSpinBox* spin = real("growth.rate");
    ASSERT_NE(spin, nullptr);
    typeInto(spin, "5e12");
    EXPECT_TRUE(calls.empty()) << "an out-of-range value never reaches the apply function";
    // Not clamped to the maximum: the field shows the value in effect again.
    EXPECT_EQ(spin->value(), 300.0);
    EXPECT_EQ(spin->text(), "300");
    EXPECT_EQ(panel.values().real("growth.rate"), 300.0);
    const std::string range = refusalTable().at("growth.rate").rangeText();
    ASSERT_EQ(rejected.count(), 1);
    const QString message = rejected[0][0].toString();
    EXPECT_TRUE(message.contains("growth.rate")) << message.toStdString();
    EXPECT_TRUE(message.contains("5e+12")) << message.toStdString();
    EXPECT_TRUE(message.contains(QString::fromStdString(range))) << message.toStdString();
    // At the row: the marker, the red outline, the reason and the range in the tooltip.
    EXPECT_EQ(panel.errorText("growth.rate"), message);
    EXPECT_EQ(marker("growth.rate")->text(), "!");
    EXPECT_EQ(marker("growth.rate")->toolTip(), message);
    EXPECT_TRUE(spin->styleSheet().contains("#d32f2f")) << spin->styleSheet().toStdString();
    const QString tip = spin->toolTip();
    EXPECT_TRUE(tip.contains("Rejected")) << tip.toStdString();
    EXPECT_TRUE(tip.contains(QString::fromStdString(range).toHtmlEscaped())) << tip.toStdString();
    EXPECT_EQ(panel.undoStack()->count(), 0);
    EXPECT_TRUE(panel.editHistory().empty());

    // Below the minimum of an integer, likewise (not clamped to 1).
    typeInto(integer("growth.substeps"), "-50");
    EXPECT_TRUE(calls.empty());
    EXPECT_EQ(integer("growth.substeps")->value(), 4);
    ASSERT_EQ(rejected.count(), 2);
    EXPECT_TRUE(rejected[1][0].toString().contains("[1, 16]"))
        << rejected[1][0].toString().toStdString();

    // A value in the range goes through and clears the marker and the outline.
    typeInto(spin, "2.5e8");
    ASSERT_EQ(calls.size(), 1u);
    EXPECT_EQ(std::get<double>(calls[0].second), 2.5e8);
    EXPECT_TRUE(panel.errorText("growth.rate").isEmpty());
    EXPECT_TRUE(marker("growth.rate")->text().isEmpty());
    EXPECT_TRUE(spin->styleSheet().isEmpty());
    EXPECT_EQ(panel.undoStack()->count(), 1);
}

TEST_F(RefusalTest, ArrowsStayInTheRange) {
    typeInto(real("growth.rate"), "1e9");
    ASSERT_EQ(calls.size(), 1u);
    real("growth.rate")->stepBy(1);  // already at the maximum
    EXPECT_EQ(panel.values().real("growth.rate"), 1e9);
    EXPECT_TRUE(panel.errorText("growth.rate").isEmpty());
}

TEST_F(RefusalTest, LateRefusalThroughTheFutureRevertsTheRowAndLeavesNoUndoEntry) {
    immediate = false;
    QSignalSpy rejected(&panel, &ParameterPanel::editRejected);
    QSignalSpy edited(&panel, &ParameterPanel::parameterEdited);
    QDoubleSpinBox* spin = real("growth.diffusion");
    typeInto(spin, "30");
    // Accepted at once: shown, on the undo stack, waiting for the simulation thread.
    ASSERT_EQ(calls.size(), 1u);
    EXPECT_EQ(spin->value(), 30.0);
    EXPECT_EQ(panel.undoStack()->count(), 1);
    EXPECT_EQ(panel.editHistory().size(), 1u);
    EXPECT_TRUE(panel.hasPendingApplies());
    EXPECT_EQ(rejected.count(), 0);

    // The model refuses it when it applies it; the simulation keeps the old value.
    ASSERT_EQ(promises.size(), 1u);
    promises[0].set_exception(
        std::make_exception_ptr(ParameterError("the CUDA backend cannot take 30 with dt")));
    // The panel's own timer notices it.
    ASSERT_TRUE(QTest::qWaitFor([&] { return !panel.hasPendingApplies(); }, 5000));
    EXPECT_EQ(spin->value(), 20.0);
    EXPECT_EQ(panel.values().real("growth.diffusion"), 20.0);
    EXPECT_EQ(panel.undoStack()->count(), 0) << "no undo entry claims the refused edit";
    EXPECT_FALSE(panel.undoStack()->canUndo());
    EXPECT_TRUE(panel.editHistory().empty()) << "no history entry claims the refused edit";
    ASSERT_EQ(rejected.count(), 1);
    const QString message = rejected[0][0].toString();
    EXPECT_TRUE(message.contains("the CUDA backend cannot take 30 with dt"))
        << message.toStdString();
    EXPECT_TRUE(message.contains("growth.diffusion")) << message.toStdString();
    EXPECT_TRUE(message.contains("[0, 100]")) << message.toStdString();
    EXPECT_EQ(panel.errorText("growth.diffusion"), message);
    EXPECT_EQ(marker("growth.diffusion")->text(), "!");
    EXPECT_TRUE(spin->toolTip().contains("cannot take 30"));
    EXPECT_EQ(calls.size(), 1u) << "the refusal is not applied again";
    EXPECT_EQ(edited.count(), 1);  // only the edit itself, when it was accepted at first
}

TEST_F(RefusalTest, LateRefusalBelowOtherEditsTakesOnlyItsOwnEntryOut) {
    immediate = false;
    typeInto(real("growth.diffusion"), "30");
    immediate = true;
    typeInto(real("growth.rate"), "500");  // accepted and applied, on top of the stack
    ASSERT_EQ(panel.undoStack()->count(), 2);
    promises[0].set_exception(std::make_exception_ptr(std::runtime_error("refused by the model")));
    panel.checkPendingApplies();
    EXPECT_EQ(real("growth.diffusion")->value(), 20.0);
    ASSERT_EQ(panel.undoStack()->count(), 1);
    EXPECT_EQ(panel.undoStack()->text(0), "growth.rate = 500");
    ASSERT_EQ(panel.editHistory().size(), 1u);
    EXPECT_EQ(panel.editHistory()[0].key, "growth.rate");
    // The rest of the stack still works and applies nothing twice.
    calls.clear();
    panel.undoStack()->undo();
    ASSERT_EQ(calls.size(), 1u);
    EXPECT_EQ(calls[0].first, "growth.rate");
    EXPECT_EQ(std::get<double>(calls[0].second), 300.0);
    EXPECT_EQ(real("growth.diffusion")->value(), 20.0);
}

TEST_F(RefusalTest, LateRefusalOfAnUndoKeepsTheEditDone) {
    typeInto(real("growth.diffusion"), "30");  // accepted at once
    ASSERT_EQ(panel.undoStack()->index(), 1);
    immediate = false;
    panel.undoStack()->undo();  // 20 is sent, and refused later
    EXPECT_EQ(real("growth.diffusion")->value(), 20.0);
    EXPECT_EQ(panel.undoStack()->index(), 0);
    ASSERT_EQ(promises.size(), 1u);
    promises[0].set_exception(std::make_exception_ptr(ParameterError("not now")));
    panel.checkPendingApplies();
    // The value in effect is still 30, and the stack says so: the edit can be undone again.
    EXPECT_EQ(real("growth.diffusion")->value(), 30.0);
    EXPECT_EQ(panel.undoStack()->index(), 1);
    EXPECT_TRUE(panel.undoStack()->canUndo());
    EXPECT_FALSE(panel.undoStack()->canRedo());
    ASSERT_EQ(panel.editHistory().size(), 1u);
    EXPECT_EQ(panel.editHistory()[0].kind, ParamEdit::Kind::Edit);
    EXPECT_FALSE(panel.editHistory()[0].undone);
    EXPECT_TRUE(panel.errorText("growth.diffusion").contains("not now"));
}

TEST_F(RefusalTest, AcceptedFutureLeavesTheEditAlone) {
    immediate = false;
    typeInto(real("growth.diffusion"), "30");
    promises[0].set_value();
    panel.checkPendingApplies();
    EXPECT_FALSE(panel.hasPendingApplies());
    EXPECT_EQ(real("growth.diffusion")->value(), 30.0);
    EXPECT_EQ(panel.undoStack()->count(), 1);
    EXPECT_TRUE(panel.errorText("growth.diffusion").isEmpty());
}

}  // namespace
}  // namespace cf::gui
