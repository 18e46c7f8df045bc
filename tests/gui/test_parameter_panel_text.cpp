// SPDX-License-Identifier: GPL-3.0-or-later
// Text parameters in the parameter dock, driven through the widgets against a real Runner
// with a test model (no built-in model declares text yet): typed text reaches the model
// (live at the next step, structural at the reset), multi-line text keeps its newlines,
// bad text is refused with the key named and reverts, undo replays through the runner,
// file paths resolve against the scenario directory and come from the chooser.
#include <gtest/gtest.h>

#include <QApplication>
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTest>
#include <QToolButton>
#include <QUndoStack>
#include <chrono>

#include "gui/parameter_panel.hpp"
#include "gui/text_editors.hpp"
#include "sim/run/runner.hpp"
#include "tests/support/text_model.hpp"

namespace cf::gui {
namespace {

using namespace std::chrono_literals;

const ModelDescriptor& textModel() {
    static const ModelDescriptor d = test::textDescriptor();
    return d;
}

class TextPanelTest : public ::testing::Test {
protected:
    void SetUp() override {
        runner =
            std::make_unique<Runner>(textModel(), Backend::Cpu, ParamSet(test::textTable()), 1u);
        panel.setParameters(test::textTable(), runner->parameters());
        panel.setApplyFunction([this](const std::string& key, const ParamValue& value) {
            ++applies;
            runner->setParameter(key, value);  // throws ParameterError: the panel reverts
        });
        panel.resize(560, 420);
        panel.show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&panel));
        QApplication::setActiveWindow(&panel);
    }
    template <typename W>
    W* widget(const std::string& name) {
        auto* w = panel.findChild<W*>(QString::fromStdString(name));
        EXPECT_NE(w, nullptr) << name;
        return w;
    }
    TextParamEdit* text(const std::string& key) { return widget<TextParamEdit>("text:" + key); }
    // The runner's current value of `key` once the edits sent so far are applied (its
    // commands run in order on the simulation thread, as the window sends them: no wait).
    std::string requested(const std::string& key) {
        runner->withModel([](Model&) {}).get();
        return runner->parameters().text(key);
    }
    // What the model runs with, read on the simulation thread.
    test::TextParams running() {
        test::TextParams p;
        runner->withModel([&](Model& m) { p = static_cast<test::TextModel&>(m).running(); }).get();
        return p;
    }
    // Types into the editor as a user would: focus, select everything, type.
    void typeInto(QWidget* editor, const QString& keys) {
        editor->setFocus();
        QTest::keyClick(editor, Qt::Key_A, Qt::ControlModifier);
        QTest::keyClicks(editor, keys);
    }

    std::unique_ptr<Runner> runner;
    ParameterPanel panel;
    int applies = 0;
};

TEST_F(TextPanelTest, BuildsTextAndPathRows) {
    TextParamEdit* network = text("reactions.network");
    TextParamEdit* species = text("reactions.species");
    ASSERT_TRUE(network && species);
    EXPECT_EQ(network->toPlainText(), "A + B -> C @ 1e5\nC -> A + B @ 2");
    EXPECT_EQ(species->toPlainText(), "A, B, C");
    // The field is as high as its text: two lines against one.
    EXPECT_GT(network->height(), species->height());
    EXPECT_LT(network->height(), 3 * species->height());
    EXPECT_NE(widget<QLineEdit>("pathEdit:io.input"), nullptr);
    EXPECT_NE(widget<QToolButton>("browse:io.input"), nullptr);
    // Tooltip: the default quoted on one line, the kind, how to apply.
    const QString tip = network->toolTip();
    EXPECT_TRUE(tip.contains("Default: &quot;A + B -&gt; C @ 1e5\\nC -&gt; A + B @ 2&quot;"))
        << tip.toStdString();
    EXPECT_TRUE(tip.contains("Range: text")) << tip.toStdString();
    EXPECT_TRUE(tip.contains("Shift+Enter")) << tip.toStdString();
    EXPECT_TRUE(tip.contains("structural: applies at the next reset")) << tip.toStdString();
    EXPECT_TRUE(species->toolTip().contains("live: applies at the next step"));
    EXPECT_TRUE(widget<QWidget>("path:io.input")->toolTip().contains("Range: file path"));
    EXPECT_EQ(applies, 0);
    // A picture for a person to look at (CELLFORGE_PANEL_SHOTS names a directory).
    const QString shots = qEnvironmentVariable("CELLFORGE_PANEL_SHOTS");
    if (!shots.isEmpty()) {
        network->setFocus();
        network->moveCursor(QTextCursor::End);
        QTest::keyClick(network, Qt::Key_Return, Qt::ShiftModifier);
        QTest::keyClicks(network, "C + D -> E @ 3.5e4");
        widget<QLineEdit>("pathEdit:io.input")->setFocus();
        QApplication::processEvents();
        QTest::qWait(20);
        panel.grab().save(QDir(shots).filePath("text_panel.png"));
    }
}

TEST_F(TextPanelTest, LiveTextReachesTheModelAtTheNextStep) {
    QSignalSpy edited(&panel, &ParameterPanel::parameterEdited);
    TextParamEdit* species = text("reactions.species");
    typeInto(species, "X, Y");
    EXPECT_EQ(applies, 0) << "nothing is applied while typing";
    QTest::keyClick(species, Qt::Key_Return);
    EXPECT_EQ(applies, 1);
    EXPECT_EQ(requested("reactions.species"), "X, Y");
    runner->stepBy(1).get();
    EXPECT_EQ(running().species, "X, Y");
    ASSERT_EQ(edited.count(), 1);
    EXPECT_EQ(edited[0][1].toString(), "X, Y");
    EXPECT_EQ(species->toPlainText(), "X, Y");  // Enter commits, adds no newline
    // Enter again with nothing changed applies nothing.
    QTest::keyClick(species, Qt::Key_Return);
    EXPECT_EQ(applies, 1);
    EXPECT_EQ(panel.undoStack()->count(), 1);
    EXPECT_EQ(panel.undoStack()->undoText(), "reactions.species = X, Y");
}

TEST_F(TextPanelTest, MultiLineStructuralTextWaitsForTheReset) {
    TextParamEdit* network = text("reactions.network");
    typeInto(network, "A -> B @ 1");
    QTest::keyClick(network, Qt::Key_Return, Qt::ShiftModifier);  // a new line, no commit
    QTest::keyClicks(network, "B -> A @ \"2\"");
    EXPECT_EQ(applies, 0);
    // Leaving the field commits.
    widget<QLineEdit>("pathEdit:io.input")->setFocus();
    QApplication::processEvents();
    ASSERT_EQ(applies, 1);
    const std::string typed = "A -> B @ 1\nB -> A @ \"2\"";
    EXPECT_EQ(requested("reactions.network"), typed);
    EXPECT_EQ(runner->activeParameters().text("reactions.network"),  // after requested()
              "A + B -> C @ 1e5\nC -> A + B @ 2");
    EXPECT_EQ(panel.pendingKeys(), std::vector<std::string>{"reactions.network"});
    EXPECT_EQ(widget<QLabel>("tag:reactions.network")->text(), "pending");
    EXPECT_TRUE(network->font().italic());
    runner->stepBy(3).get();
    EXPECT_EQ(running().network, "A + B -> C @ 1e5\nC -> A + B @ 2") << "structural: not yet";
    auto history = runner->history();
    ASSERT_EQ(history.size(), 1u);
    EXPECT_EQ(history[0].key, "reactions.network");
    EXPECT_TRUE(history[0].pendingReset);
    EXPECT_EQ(std::get<std::string>(history[0].newValue), typed);

    runner->reset().get();
    panel.markApplied();
    EXPECT_EQ(running().network, typed);
    EXPECT_FALSE(panel.hasPendingReset());
    EXPECT_FALSE(runner->history().at(0).pendingReset);
    // The undo entry and the panel's history show it on one line; the JSON keeps it whole.
    EXPECT_EQ(panel.undoStack()->undoText(),
              QString::fromStdString("reactions.network = A -> B @ 1\\nB -> A @ \"2\""));
    EXPECT_NE(panel.historyJson().find(R"("new": "A -> B @ 1\nB -> A @ \"2\"")"), std::string::npos)
        << panel.historyJson();
}

TEST_F(TextPanelTest, ControlCharacterIsRefusedNamingTheKeyAndReverts) {
    QSignalSpy rejected(&panel, &ParameterPanel::editRejected);
    TextParamEdit* species = text("reactions.species");
    species->setFocus();
    species->setPlainText(QString("A") + QChar(0x07) + "B");  // e.g. pasted
    species->commit();
    ASSERT_EQ(rejected.count(), 1);
    const QString message = rejected[0][0].toString();
    EXPECT_TRUE(message.contains("reactions.species")) << message.toStdString();
    EXPECT_TRUE(message.contains("U+0007")) << message.toStdString();
    EXPECT_EQ(panel.errorText("reactions.species"), message);
    EXPECT_EQ(species->toPlainText(), "A, B, C");  // back to the last good value
    EXPECT_EQ(requested("reactions.species"), "A, B, C");
    EXPECT_EQ(panel.undoStack()->count(), 0);
    EXPECT_EQ(widget<QLabel>("marker:reactions.species")->text(), "!");
}

TEST_F(TextPanelTest, EscapeRevertsAndUndoReplaysThroughTheRunner) {
    TextParamEdit* species = text("reactions.species");
    typeInto(species, "never applied");
    QTest::keyClick(species, Qt::Key_Escape);
    EXPECT_EQ(species->toPlainText(), "A, B, C");
    widget<QLineEdit>("pathEdit:io.input")->setFocus();  // focus out: nothing to commit
    QApplication::processEvents();
    EXPECT_EQ(applies, 0);

    typeInto(species, "P, Q");
    QTest::keyClick(species, Qt::Key_Return);
    ASSERT_EQ(requested("reactions.species"), "P, Q");
    panel.undoStack()->undo();
    EXPECT_EQ(applies, 2);
    EXPECT_EQ(requested("reactions.species"), "A, B, C");
    EXPECT_EQ(species->toPlainText(), "A, B, C");
    panel.undoStack()->redo();
    EXPECT_EQ(requested("reactions.species"), "P, Q");
    EXPECT_EQ(species->toPlainText(), "P, Q");
    // The row's reset button puts the default back through the runner too.
    widget<QToolButton>("reset:reactions.species")->click();
    EXPECT_EQ(requested("reactions.species"), "A, B, C");
}

TEST_F(TextPanelTest, FilePathsResolveAgainstTheBaseDirectoryAndComeFromTheChooser) {
    panel.setFileBaseDirectory("/data/scenarios");
    QString chooserStart;
    QString chooserAnswer = "/srv/volumes/occupancy.bin";
    panel.setFileChooser([&](QWidget*, const QString& start) {
        chooserStart = start;
        return chooserAnswer;
    });
    auto* line = widget<QLineEdit>("pathEdit:io.input");
    typeInto(line, "occ/../init/a.bin");
    QTest::keyClick(line, Qt::Key_Return);
    EXPECT_EQ(requested("io.input"), "/data/scenarios/init/a.bin");
    EXPECT_EQ(line->text(), "/data/scenarios/init/a.bin");
    EXPECT_TRUE(widget<QWidget>("path:io.input")->toolTip().contains("/data/scenarios"));

    widget<QToolButton>("browse:io.input")->click();
    EXPECT_EQ(chooserStart, "/data/scenarios/init/a.bin");  // opens at the current file
    EXPECT_EQ(requested("io.input"), "/srv/volumes/occupancy.bin");
    EXPECT_EQ(line->text(), "/srv/volumes/occupancy.bin");
    const int before = applies;
    chooserAnswer.clear();  // cancelled
    widget<QToolButton>("browse:io.input")->click();
    EXPECT_EQ(applies, before);
    EXPECT_EQ(requested("io.input"), "/srv/volumes/occupancy.bin");
    // A path with a newline cannot be typed into one line; an empty path means none.
    typeInto(line, "");
    QTest::keyClick(line, Qt::Key_Delete);
    QTest::keyClick(line, Qt::Key_Return);
    EXPECT_EQ(requested("io.input"), "");
}

}  // namespace
}  // namespace cf::gui
