// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The parameter dock: generated from the model's parameter declarations (ParamTable).
// One collapsible section per group, in declaration order; per parameter a row with its
// name, a slider and a spin box (reals, integers), a check box (booleans) or a combo box
// (choices), a text field (text: one line growing with its lines) or a path field with a
// file chooser (file paths), the unit, an error marker and a reset-to-default button. Every user
// edit goes through the apply function (the lead's Runner::setParameter) and onto the panel's undo
// stack. A value outside the parameter's range is refused, never clamped (the spin boxes take any
// number). A refused value (out of range, an apply that throws, or one whose future later holds an
// exception) leaves the row at the value in effect, marked red with the reason and the range, and
// no undo or history entry claims it. Structural parameters are marked "reset"; while an edit of
// one is waiting for the next reset the row shows "pending reset" in italics.
#include <QString>
#include <QWidget>
#include <chrono>
#include <concepts>
#include <cstdint>
#include <functional>
#include <future>
#include <list>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "gui/parameter_history.hpp"
#include "gui/text_editors.hpp"
#include "sim/core/params.hpp"

class QLineEdit;
class QScrollArea;
class QTimer;
class QUndoCommand;
class QUndoStack;
class QVBoxLayout;

namespace cf::gui {

class ParameterPanel : public QWidget {
    Q_OBJECT
public:
    // Applies one validated value; throws (cf::ParameterError or any std::exception) to
    // refuse it at once. The returned future (Runner::setParameter's) may hold a refusal that
    // comes later, from the thread that applies the value; an invalid (default) future means
    // "applied, no later refusal". The panel never calls it re-entrantly.
    using ApplyFunction =
        std::function<std::future<void>(const std::string& key, const ParamValue& value)>;
    // The value a parameter has in effect (Runner::parameters()), asked when a refusal arrives
    // through a future. Without it the value before the refused edit is taken.
    using InEffectFunction = std::function<ParamValue(const std::string& key)>;
    // While a slider is dragged the apply function runs at most this often (and always
    // with the value where the drag ends).
    static constexpr std::chrono::milliseconds kDragApplyInterval{50};
    // Slider steps by keyboard or wheel on the same parameter within this interval merge
    // into one undo entry.
    static constexpr std::chrono::milliseconds kSliderMergeWindow{700};
    // Text values in undo entries and parameterEdited: one line, cut after this many
    // characters.
    static constexpr std::size_t kSummaryChars = 60;
    // How often the futures of applies still in flight are looked at.
    static constexpr std::chrono::milliseconds kPendingPollInterval{20};

    explicit ParameterPanel(QWidget* parent = nullptr);
    ~ParameterPanel() override;

    // Rebuilds the panel for `table` showing `values`, which also become the applied
    // values (nothing pending). Clears the undo stack and the edit history (a new run).
    // `table` must outlive the panel or the next call (model tables are static).
    void setParameters(const ParamTable& table, const ParamSet& values);
    void setApplyFunction(ApplyFunction apply);
    // A callable returning void: applied or refused at once (no later refusal).
    template <typename F>
    requires std::invocable<F&, const std::string&, const ParamValue&> &&
        std::is_void_v<std::invoke_result_t<F&, const std::string&, const ParamValue&>>
    void setApplyFunction(F apply) {
        setApplyFunction(ApplyFunction(
            [f = std::move(apply)](const std::string& key, const ParamValue& value) mutable {
                f(key, value);
                return std::future<void>();
            }));
    }
    void setInEffectFunction(InEffectFunction inEffect);
    // Where relative file paths typed into file-path rows are taken from (the scenario's
    // directory, as in the scenario file); the file chooser opens there. Default: the
    // working directory.
    void setFileBaseDirectory(const QString& directory);
    // Replaces the file dialog of file-path rows (tests).
    void setFileChooser(FilePathEdit::Chooser chooser);

    // Shows a value changed elsewhere (ImGui quick panel, loaded checkpoint): no apply
    // call, no undo entry, no history entry. Throws ParameterError for an unknown key or
    // an invalid value. A structural value that differs from the applied one is pending.
    void setValue(const std::string& key, const ParamValue& value);
    void setValues(const ParamSet& values);
    // The current values are what the model runs with now (after a reset): clears every
    // "pending reset" marker.
    void markApplied();
    bool hasPendingReset() const;
    std::vector<std::string> pendingKeys() const;

    // Current values. The set refers to the table given to setParameters.
    ParamSet values() const;
    QUndoStack* undoStack() const { return undo_; }
    std::vector<ParamEdit> editHistory() const { return history_; }
    std::string historyJson() const { return historyToJson(history_); }
    // The last rejection message of a row ("" when its last edit was accepted).
    QString errorText(const std::string& key) const;
    // Applies whose future is not ready yet; checkPendingApplies() looks at them now (a timer
    // does it every kPendingPollInterval while there are any).
    bool hasPendingApplies() const { return !pendingApplies_.empty(); }
    void checkPendingApplies();

    // The same as typing `value` into the parameter's row and pressing Enter: applied (or
    // rejected, with editRejected), an undo entry, a history entry, parameterEdited. For
    // scripted sessions (the soak driver) and tests. False when it was rejected or the
    // key has no row.
    bool edit(const std::string& key, const ParamValue& value);
    // The same as the buttons: each applies the defaults and makes one undo entry.
    void resetToDefault(const std::string& key);
    void resetGroup(const std::string& group);
    void resetAll();
    // The same as typing into the search box.
    void setFilter(const QString& text);
    // The narrowest width at which every column (name, slider, value, unit, the refusal
    // marker and the reset buttons) is in view without scrolling sideways: the window
    // gives the dock this width at first start.
    int fittingWidth() const;

signals:
    // After a committed edit was applied (a discrete edit, the end of a slider drag, an
    // undo, a redo, a reset); not for the rate-limited applies in the middle of a drag,
    // nor for setValue.
    void parameterEdited(const QString& key, const QString& valueText);
    // A value was refused (at once or later, through the apply's future); `message` names the
    // parameter, the value, the allowed range and the reason.
    void editRejected(const QString& message);
    void pendingResetChanged(bool pending);

private:
    struct Row;
    struct Section;
    class EditCommand;
    friend class EditCommand;

    void buildRow(Section& section, const ParamSpec& spec, int gridRow);
    void connectRow(Row& row);
    Row* rowFor(const std::string& key);
    const Row* rowFor(const std::string& key) const;

    // Edits from the row's widgets.
    void userEdit(Row& row, const ParamValue& value, bool mergeableSliderStep);
    void sliderMoved(Row& row, int position);
    void beginDrag(Row& row);
    void endDrag(Row& row);
    void flushDrag();

    // Validates and calls the apply function. On success stores the value; on failure
    // restores the last good value and shows the error. Either way the row is refreshed.
    bool applyValue(Row& row, const ParamValue& value, bool reportRejection = true);
    // Undo/redo of a command: the same path as an edit, recorded as Undo/Redo.
    bool applyFromCommand(const std::string& key, const ParamValue& value, ParamEdit::Kind kind,
                          std::uint64_t entrySerial);
    // Records an applied change and puts it on the undo stack (or under `parent`, a macro).
    // Returns the serial of its history entry, which its undo entry holds as a step.
    std::uint64_t pushEdit(Row& row, const ParamValue& oldValue, const ParamValue& newValue,
                           ParamEdit::Kind kind, bool mergeable, QUndoCommand* parent);
    void resetRows(const std::vector<Row*>& rows, const QString& text);

    // Applies in flight: what a refusal arriving through the future must take back.
    struct PendingApply {
        enum class Via { Edit, Undo, Redo };
        std::string key;
        ParamValue oldValue;  // the panel's value before the apply
        ParamValue value;     // the value applied
        std::future<void> result;
        Via via = Via::Edit;
        std::uint64_t step = 0;     // Edit: the undo entry's step (history serial); 0: none
        std::uint64_t command = 0;  // Undo/Redo: the entry serial of the command undone/redone
        std::uint64_t entry = 0;    // Undo/Redo: the history entry the undo/redo made
        bool undoneBefore = false;  // Undo/Redo: the command's entry's undone flag before
    };
    void lateRefusal(PendingApply& applied, const QString& what);
    void retractStep(const std::string& key, std::uint64_t step, const ParamValue& inEffect);
    // Undo entries by the serial of their history entry (top-level commands and macro
    // children) or by one of their steps.
    EditCommand* commandByEntry(std::uint64_t entrySerial) const;
    EditCommand* commandByStep(std::uint64_t step) const;
    int topLevelIndex(const QUndoCommand* command) const;    // -1: not a top-level command
    int topLevelIndexOf(const QUndoCommand* command) const;  // the command or its macro
    // Rebuilds the undo stack without `drop` (a command or a macro's child), keeping the
    // others and the position; nothing is applied.
    void dropCommand(const QUndoCommand* drop);
    ParamEdit* historyEntry(std::uint64_t serial);
    void eraseHistoryEntry(std::uint64_t serial);
    QString refusalMessage(const ParamSpec& spec, const ParamValue& value,
                           const QString& reason) const;

    void showValue(Row& row);
    void showError(Row& row, const QString& message, bool report);
    void updateTooltip(Row& row);
    void updatePending();
    void applyFilter();
    ParamValue widgetValue(const Row& row, int sliderPosition) const;

    const ParamTable* table_ = nullptr;
    ApplyFunction apply_;
    InEffectFunction inEffect_;
    QString fileBaseDirectory_;
    FilePathEdit::Chooser fileChooser_;
    QUndoStack* undo_ = nullptr;
    QLineEdit* search_ = nullptr;
    QScrollArea* scroll_ = nullptr;
    QWidget* content_ = nullptr;
    QVBoxLayout* sectionsLayout_ = nullptr;
    std::vector<std::unique_ptr<Section>> sections_;
    std::vector<std::unique_ptr<Row>> rows_;
    std::map<std::string, ParamValue, std::less<>> current_;
    std::map<std::string, ParamValue, std::less<>> applied_;  // what the model runs with
    std::vector<ParamEdit> history_;
    std::vector<std::uint64_t> historySerials_;  // one per history_ entry
    std::uint64_t nextSerial_ = 1;
    std::list<PendingApply> pendingApplies_;  // in the order applied
    PendingApply* lastPending_ = nullptr;     // made by the last applyValue, if any
    QTimer* pendingTimer_ = nullptr;
    bool silent_ = false;      // undo entries' undo()/redo() apply nothing (rebuilding)
    bool rebuilding_ = false;  // no merging while the undo stack is rebuilt
    bool pending_ = false;
    bool applying_ = false;

    struct Drag {
        Row* row = nullptr;
        ParamValue start;
        std::optional<ParamValue> waiting;  // moved to, not yet applied
        bool lastFailed = false;            // the last apply of the drag was rejected
        std::chrono::steady_clock::time_point lastApply{};
    };
    Drag drag_;
    QTimer* dragTimer_ = nullptr;
};

}  // namespace cf::gui
