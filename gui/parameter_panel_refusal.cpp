// SPDX-License-Identifier: GPL-3.0-or-later
// Refusals that arrive after an edit was accepted at once: the apply's future holds the
// model's refusal (the simulation thread checks the edit again and the backend may refuse
// it). The edit's step leaves the undo stack and the history, and the row shows the value in
// effect with the reason.
#include <QTimer>
#include <QUndoStack>
#include <algorithm>
#include <future>

#include "gui/parameter_panel_command.hpp"
#include "gui/parameter_panel_rows.hpp"

namespace cf::gui {

void ParameterPanel::checkPendingApplies() {
    lastPending_ = nullptr;
    // In the order applied: the simulation thread applies them in that order too.
    while (!pendingApplies_.empty()) {
        PendingApply& front = pendingApplies_.front();
        if (front.result.wait_for(std::chrono::seconds(0)) != std::future_status::ready) break;
        QString failure;
        try {
            front.result.get();
        } catch (const std::future_error&) {
            // The run went away before applying it (a new scenario, closing): not a refusal.
        } catch (const std::exception& e) {
            failure = QString::fromUtf8(e.what());
        } catch (...) {
            failure = tr("the value was rejected");
        }
        PendingApply done = std::move(front);
        pendingApplies_.pop_front();
        if (!failure.isEmpty()) lateRefusal(done, failure);
    }
    if (pendingApplies_.empty()) pendingTimer_->stop();
}

void ParameterPanel::lateRefusal(PendingApply& p, const QString& what) {
    Row* row = rowFor(p.key);
    if (!row) return;
    ParamValue inEffect = p.oldValue;
    if (inEffect_) {
        try {
            inEffect = validateValue(*row->spec, inEffect_(p.key));
        } catch (...) {
            // keep the value before the refused apply
        }
    }
    // A later apply of the same parameter still in flight decides what the row shows.
    const bool later = std::any_of(pendingApplies_.begin(), pendingApplies_.end(),
                                   [&](const PendingApply& q) { return q.key == p.key; });
    if (!later) current_[p.key] = inEffect;
    row->error = refusalMessage(*row->spec, p.value, what);
    if (!row->slider || !row->slider->isSliderDown() || drag_.row != row) showValue(*row);
    updateTooltip(*row);
    updatePending();

    if (p.via == PendingApply::Via::Edit) {
        if (p.step != 0) retractStep(p.key, p.step, inEffect);
    } else {
        // An undo or redo that did not happen: its history entry goes, the command's entry
        // is as before, and the stack goes back to where the value is.
        eraseHistoryEntry(p.entry);
        if (ParamEdit* entry = historyEntry(p.command)) entry->undone = p.undoneBefore;
        // (A macro's child, part of a reset, stays: the macro's other values did change.)
        if (EditCommand* c = commandByEntry(p.command); c && topLevelIndex(c) >= 0) {
            const int at = topLevelIndex(c);
            const bool undo = p.via == PendingApply::Via::Undo;
            if (undo && at == undo_->index()) {
                silent_ = true;
                undo_->redo();  // done again, as the value says
                silent_ = false;
            } else if (!undo && at == undo_->index() - 1) {
                silent_ = true;
                undo_->undo();
                silent_ = false;
            } else if (at >= 0) {
                dropCommand(c);  // the stack moved on: the entry no longer fits anywhere
            }
        }
    }
    emit editRejected(row->error);
}

void ParameterPanel::retractStep(const std::string& key, std::uint64_t step,
                                 const ParamValue& inEffect) {
    EditCommand* c = commandByStep(step);
    if (!c) {
        eraseHistoryEntry(step);
        return;
    }
    std::vector<std::uint64_t>& steps = c->steps();
    const bool wasLast = steps.back() == step;
    std::erase(steps, step);
    // The next undo entry of the same parameter starts from the value in effect.
    const int at = topLevelIndexOf(c);
    for (int i = at + 1; at >= 0 && i < undo_->count(); ++i) {
        const QUndoCommand* next = undo_->command(i);
        bool found = false;
        for (int k = -1; k < next->childCount() && !found; ++k) {
            auto* e = dynamic_cast<EditCommand*>(
                const_cast<QUndoCommand*>(k < 0 ? next : next->child(k)));
            if (e && e->key() == key) {
                e->setOldValue(inEffect);
                found = true;
            }
        }
        if (found) break;
    }
    if (wasLast) c->setNewValue(inEffect);
    if (steps.empty() || c->newValue() == c->oldValue()) {
        eraseHistoryEntry(c->entry());
        dropCommand(c);
    }
}

ParameterPanel::EditCommand* ParameterPanel::commandByEntry(std::uint64_t entrySerial) const {
    for (int i = 0; i < undo_->count(); ++i) {
        const QUndoCommand* c = undo_->command(i);
        for (int k = -1; k < c->childCount(); ++k) {
            auto* e =
                dynamic_cast<EditCommand*>(const_cast<QUndoCommand*>(k < 0 ? c : c->child(k)));
            if (e && e->entry() == entrySerial) return e;
        }
    }
    return nullptr;
}

ParameterPanel::EditCommand* ParameterPanel::commandByStep(std::uint64_t step) const {
    for (int i = 0; i < undo_->count(); ++i) {
        const QUndoCommand* c = undo_->command(i);
        for (int k = -1; k < c->childCount(); ++k) {
            auto* e =
                dynamic_cast<EditCommand*>(const_cast<QUndoCommand*>(k < 0 ? c : c->child(k)));
            if (e && std::find(e->steps().begin(), e->steps().end(), step) != e->steps().end())
                return e;
        }
    }
    return nullptr;
}

int ParameterPanel::topLevelIndex(const QUndoCommand* command) const {
    for (int i = 0; i < undo_->count(); ++i)
        if (undo_->command(i) == command) return i;
    return -1;
}

int ParameterPanel::topLevelIndexOf(const QUndoCommand* command) const {
    for (int i = 0; i < undo_->count(); ++i) {
        const QUndoCommand* c = undo_->command(i);
        if (c == command) return i;
        for (int k = 0; k < c->childCount(); ++k)
            if (c->child(k) == command) return i;
    }
    return -1;
}

void ParameterPanel::dropCommand(const QUndoCommand* drop) {
    // QUndoStack cannot remove one command: copy the others, clear, push the copies back
    // and return to the same position, with every undo()/redo() applying nothing.
    const int index = undo_->index();
    int newIndex = index;
    std::vector<QUndoCommand*> copies;
    for (int i = 0; i < undo_->count(); ++i) {
        const QUndoCommand* c = undo_->command(i);
        QUndoCommand* copy = nullptr;
        if (c != drop) {
            if (const auto* e = dynamic_cast<const EditCommand*>(c)) {
                copy = new EditCommand(*e, nullptr);
            } else {
                auto macro = std::make_unique<QUndoCommand>(c->text());
                for (int k = 0; k < c->childCount(); ++k)
                    if (const auto* child = dynamic_cast<const EditCommand*>(c->child(k));
                        child && child != drop)
                        new EditCommand(*child, macro.get());
                if (macro->childCount() > 0) copy = macro.release();
            }
        }
        if (copy)
            copies.push_back(copy);
        else if (i < index)
            --newIndex;
    }
    silent_ = rebuilding_ = true;
    undo_->clear();
    for (QUndoCommand* c : copies)
        undo_->push(c);
    undo_->setIndex(newIndex);
    silent_ = rebuilding_ = false;
}

ParamEdit* ParameterPanel::historyEntry(std::uint64_t serial) {
    for (std::size_t i = 0; i < historySerials_.size(); ++i)
        if (historySerials_[i] == serial) return &history_[i];
    return nullptr;
}

void ParameterPanel::eraseHistoryEntry(std::uint64_t serial) {
    for (std::size_t i = 0; i < historySerials_.size(); ++i)
        if (historySerials_[i] == serial) {
            history_.erase(history_.begin() + static_cast<std::ptrdiff_t>(i));
            historySerials_.erase(historySerials_.begin() + static_cast<std::ptrdiff_t>(i));
            return;
        }
}

}  // namespace cf::gui
