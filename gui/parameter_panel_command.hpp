// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The panel's undo command (private to parameter_panel*.cpp): shared by the edits
// (parameter_panel.cpp) and the refusals that arrive later (parameter_panel_refusal.cpp).
#include <QUndoCommand>
#include <chrono>

#include "gui/parameter_panel.hpp"
#include "gui/parameter_panel_rows.hpp"

namespace cf::gui {

// One applied change on the undo stack. The change is applied before the command is
// pushed (so a value refused at once never reaches the stack); the first redo() is
// QUndoStack's call from push() and does nothing. A refusal that arrives later, through the
// apply's future, takes its step back out (retractStep): the command then ends at the value
// in effect, or leaves the stack.
class ParameterPanel::EditCommand : public QUndoCommand {
public:
    static constexpr int kSliderStepId = 0x50617261;

    EditCommand(ParameterPanel* panel, std::string key, ParamValue oldValue, ParamValue newValue,
                std::uint64_t entrySerial, bool mergeable, QUndoCommand* parent)
        : QUndoCommand(parent),
          panel_(panel),
          key_(std::move(key)),
          old_(std::move(oldValue)),
          new_(std::move(newValue)),
          entry_(entrySerial),
          steps_{entrySerial},
          mergeable_(mergeable),
          last_(std::chrono::steady_clock::now()) {
        updateText();
    }
    // A copy for a rebuilt stack (pushed silently: its first redo() does nothing either).
    EditCommand(const EditCommand& o, QUndoCommand* parent)
        : QUndoCommand(parent),
          panel_(o.panel_),
          key_(o.key_),
          old_(o.old_),
          new_(o.new_),
          entry_(o.entry_),
          steps_(o.steps_),
          mergeable_(o.mergeable_),
          touched_(o.touched_),
          last_(o.last_) {
        setText(o.text());
    }

    int id() const override { return mergeable_ ? kSliderStepId : -1; }

    bool mergeWith(const QUndoCommand* other) override {
        const auto* o = static_cast<const EditCommand*>(other);  // same id: an EditCommand
        if (panel_->rebuilding_ || o->key_ != key_ || touched_ ||
            o->last_ - last_ > kSliderMergeWindow)
            return false;
        new_ = o->new_;
        last_ = o->last_;
        steps_.insert(steps_.end(), o->steps_.begin(), o->steps_.end());
        if (ParamEdit* entry = panel_->historyEntry(entry_)) {
            entry->newValue = new_;
            entry->time = panel_->history_.back().time;
        }
        panel_->eraseHistoryEntry(o->entry_);  // the other command's entry, appended just before
        updateText();
        return true;
    }

    void undo() override {
        if (panel_->silent_) return;
        touched_ = true;
        if (!panel_->applyFromCommand(key_, old_, ParamEdit::Kind::Undo, entry_))
            setObsolete(true);  // cannot be undone: QUndoStack drops it
    }

    void redo() override {
        if (first_ || panel_->silent_) {
            first_ = false;
            return;
        }
        if (!panel_->applyFromCommand(key_, new_, ParamEdit::Kind::Redo, entry_)) setObsolete(true);
    }

    const std::string& key() const { return key_; }
    const ParamValue& oldValue() const { return old_; }
    const ParamValue& newValue() const { return new_; }
    std::uint64_t entry() const { return entry_; }
    std::vector<std::uint64_t>& steps() { return steps_; }
    void setOldValue(const ParamValue& v) {
        old_ = v;
        if (ParamEdit* entry = panel_->historyEntry(entry_)) entry->oldValue = v;
    }
    void setNewValue(const ParamValue& v) {
        new_ = v;
        if (ParamEdit* entry = panel_->historyEntry(entry_)) entry->newValue = v;
        updateText();
    }

private:
    void updateText() {
        setText(QObject::tr("%1 = %2").arg(qs(key_), qs(summarizeValue(new_, kSummaryChars))));
    }

    ParameterPanel* panel_;
    std::string key_;
    ParamValue old_;
    ParamValue new_;
    std::uint64_t entry_;               // serial of its history entry
    std::vector<std::uint64_t> steps_;  // the applies it records (merged slider steps: several)
    bool mergeable_;
    bool first_ = true;
    bool touched_ = false;  // undone or redone once: no longer merges
    std::chrono::steady_clock::time_point last_;
};

}  // namespace cf::gui
