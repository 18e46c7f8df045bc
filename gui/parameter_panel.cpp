// SPDX-License-Identifier: GPL-3.0-or-later
// The panel's state and edits: apply, reject, undo/redo, slider drags, resets, values set
// from outside. Building and drawing the rows is in parameter_panel_view.cpp.
#include "gui/parameter_panel.hpp"

#include <QHBoxLayout>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QTimer>
#include <QToolButton>
#include <QUndoCommand>
#include <QUndoStack>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <future>

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

ParameterPanel::ParameterPanel(QWidget* parent) : QWidget(parent) {
    undo_ = new QUndoStack(this);
    dragTimer_ = new QTimer(this);
    dragTimer_->setSingleShot(true);
    connect(dragTimer_, &QTimer::timeout, this, &ParameterPanel::flushDrag);
    pendingTimer_ = new QTimer(this);
    pendingTimer_->setInterval(kPendingPollInterval);
    connect(pendingTimer_, &QTimer::timeout, this, &ParameterPanel::checkPendingApplies);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    auto* bar = new QHBoxLayout;
    search_ = new QLineEdit(this);
    search_->setObjectName("search");
    search_->setPlaceholderText(tr("Search parameters"));
    search_->setClearButtonEnabled(true);
    search_->setToolTip(
        tr("Shows only parameters whose name, key or description contains "
           "this text (case-insensitive)"));
    connect(search_, &QLineEdit::textChanged, this, &ParameterPanel::applyFilter);
    bar->addWidget(search_, 1);
    // Fixed labels (the stack's own actions put the command text in the label); what would
    // be undone is in the tooltip.
    auto* undoButton = new QToolButton(this);
    undoButton->setObjectName("panelUndo");
    undoButton->setText(tr("Undo"));
    undoButton->setEnabled(false);
    connect(undoButton, &QToolButton::clicked, undo_, &QUndoStack::undo);
    connect(undo_, &QUndoStack::canUndoChanged, undoButton, &QToolButton::setEnabled);
    connect(undo_, &QUndoStack::undoTextChanged, undoButton,
            [undoButton](const QString& t) { undoButton->setToolTip(tr("Undo %1").arg(t)); });
    bar->addWidget(undoButton);
    auto* redoButton = new QToolButton(this);
    redoButton->setObjectName("panelRedo");
    redoButton->setText(tr("Redo"));
    redoButton->setEnabled(false);
    connect(redoButton, &QToolButton::clicked, undo_, &QUndoStack::redo);
    connect(undo_, &QUndoStack::canRedoChanged, redoButton, &QToolButton::setEnabled);
    connect(undo_, &QUndoStack::redoTextChanged, redoButton,
            [redoButton](const QString& t) { redoButton->setToolTip(tr("Redo %1").arg(t)); });
    bar->addWidget(redoButton);
    auto* resetAllButton = new QPushButton(tr("Reset all"), this);
    resetAllButton->setObjectName("resetAll");
    resetAllButton->setToolTip(tr("Set every parameter to its default (one undo step)"));
    connect(resetAllButton, &QPushButton::clicked, this, &ParameterPanel::resetAll);
    bar->addWidget(resetAllButton);
    layout->addLayout(bar);

    scroll_ = new QScrollArea(this);
    scroll_->setWidgetResizable(true);
    scroll_->setFrameShape(QFrame::NoFrame);
    layout->addWidget(scroll_, 1);
    setParameters(ParamTable{}, ParamSet(ParamTable{}));  // an empty content widget
}

ParameterPanel::~ParameterPanel() {
    dragTimer_->stop();
    pendingTimer_->stop();
    pendingApplies_.clear();
    undo_->clear();
    delete content_;  // while the rows its connections point to still exist
    content_ = nullptr;
}

void ParameterPanel::setApplyFunction(ApplyFunction apply) {
    apply_ = std::move(apply);
}

void ParameterPanel::setInEffectFunction(InEffectFunction inEffect) {
    inEffect_ = std::move(inEffect);
}

void ParameterPanel::setFileBaseDirectory(const QString& directory) {
    fileBaseDirectory_ = directory;
    for (auto& r : rows_)
        if (r->path) {
            r->path->setBaseDirectory(directory);
            updateTooltip(*r);
        }
}

void ParameterPanel::setFileChooser(FilePathEdit::Chooser chooser) {
    fileChooser_ = chooser;
    for (auto& r : rows_)
        if (r->path) r->path->setChooser(chooser);
}

void ParameterPanel::connectRow(Row& row) {
    Row* r = &row;
    if (r->slider) {
        connect(r->slider, &QSlider::valueChanged, this, [this, r](int p) { sliderMoved(*r, p); });
        connect(r->slider, &QSlider::sliderPressed, this, [this, r] { beginDrag(*r); });
        connect(r->slider, &QSlider::sliderReleased, this, [this, r] { endDrag(*r); });
    }
    if (r->real)
        connect(r->real, &QDoubleSpinBox::valueChanged, this,
                [this, r](double v) { userEdit(*r, v, false); });
    if (r->integer)
        connect(r->integer, &QSpinBox::valueChanged, this,
                [this, r](int v) { userEdit(*r, static_cast<std::int64_t>(v), false); });
    if (r->check)
        connect(r->check, &QCheckBox::toggled, this, [this, r](bool v) { userEdit(*r, v, false); });
    if (r->combo)
        connect(r->combo, &QComboBox::currentIndexChanged, this, [this, r](int i) {
            if (i >= 0) userEdit(*r, r->combo->itemText(i).toStdString(), false);
        });
    if (r->text)
        connect(r->text, &TextParamEdit::committed, this,
                [this, r](const QString& t) { userEdit(*r, t.toStdString(), false); });
    if (r->path)
        connect(r->path, &FilePathEdit::committed, this,
                [this, r](const QString& p) { userEdit(*r, p.toStdString(), false); });
    connect(r->reset, &QToolButton::clicked, this, [this, r] { resetToDefault(r->spec->key()); });
}

ParameterPanel::Row* ParameterPanel::rowFor(const std::string& key) {
    for (auto& r : rows_)
        if (r->spec->key() == key) return r.get();
    return nullptr;
}

const ParameterPanel::Row* ParameterPanel::rowFor(const std::string& key) const {
    return const_cast<ParameterPanel*>(this)->rowFor(key);
}

ParamValue ParameterPanel::widgetValue(const Row& row, int position) const {
    const double v = row.scale.valueAt(position);
    if (row.spec->type == ParamType::Integer) return static_cast<std::int64_t>(std::llround(v));
    return v;
}

// ---- edits -------------------------------------------------------------------------------

bool ParameterPanel::applyValue(Row& row, const ParamValue& value, bool reportRejection) {
    const std::string key = row.spec->key();
    lastPending_ = nullptr;
    QString failure;
    applying_ = true;
    try {
        const ParamValue v = validateValue(*row.spec, value);  // the range: refused, not clamped
        std::future<void> result;
        if (apply_) result = apply_(key, v);
        if (result.valid() && result.wait_for(std::chrono::seconds(0)) == std::future_status::ready)
            result.get();  // a refusal that is already there is one at once
        else if (result.valid()) {
            pendingApplies_.push_back({key, current_.at(key), v, std::move(result)});
            lastPending_ = &pendingApplies_.back();
            if (!pendingTimer_->isActive()) pendingTimer_->start();
        }
        current_[key] = v;
    } catch (const std::exception& e) {
        failure = refusalMessage(*row.spec, value, QString::fromUtf8(e.what()));
    } catch (...) {
        failure = refusalMessage(*row.spec, value, tr("the value was rejected"));
    }
    applying_ = false;
    if (!failure.isEmpty()) {
        showError(row, failure, reportRejection);
        return false;
    }
    row.error.clear();
    showValue(row);
    updateTooltip(row);
    updatePending();
    return true;
}

QString ParameterPanel::refusalMessage(const ParamSpec& spec, const ParamValue& value,
                                       const QString& reason) const {
    // Validation messages name the parameter, the value and the range already; a model's
    // own refusal ("13 substeps are unlucky") gets them added.
    QString message = reason;
    const QString key = qs(spec.key());
    if (!message.contains(QStringLiteral("'%1'").arg(key)))
        message = tr("parameter '%1' = %2 was refused: %3")
                      .arg(key, qs(summarizeValue(value, kSummaryChars)), message);
    const bool ranged = spec.type == ParamType::Real || spec.type == ParamType::Integer ||
                        spec.type == ParamType::Choice;
    const QString range = qs(spec.rangeText());
    if (ranged && !message.contains(range)) message += tr(" (allowed %1)").arg(range);
    return message;
}

void ParameterPanel::userEdit(Row& row, const ParamValue& value, bool mergeableSliderStep) {
    if (applying_) return;  // a widget echoing a value the panel is setting
    const std::string key = row.spec->key();
    const ParamValue old = current_.at(key);
    if (value == old) {
        showValue(row);
        return;
    }
    if (!applyValue(row, value)) return;
    PendingApply* pending = lastPending_;
    const std::uint64_t step =
        pushEdit(row, old, current_.at(key), ParamEdit::Kind::Edit, mergeableSliderStep, nullptr);
    if (pending) pending->step = step;
}

std::uint64_t ParameterPanel::pushEdit(Row& row, const ParamValue& oldValue,
                                       const ParamValue& newValue, ParamEdit::Kind kind,
                                       bool mergeable, QUndoCommand* parent) {
    const std::string key = row.spec->key();
    const std::uint64_t serial = nextSerial_++;
    history_.push_back({std::chrono::system_clock::now(), key, oldValue, newValue, kind, false});
    historySerials_.push_back(serial);
    auto* command = new EditCommand(this, key, oldValue, newValue, serial, mergeable, parent);
    if (!parent) undo_->push(command);
    emit parameterEdited(qs(key), qs(summarizeValue(newValue, kSummaryChars)));
    return serial;
}

bool ParameterPanel::applyFromCommand(const std::string& key, const ParamValue& value,
                                      ParamEdit::Kind kind, std::uint64_t entrySerial) {
    Row* row = rowFor(key);
    if (!row) return false;
    const ParamValue old = current_.at(key);
    ParamEdit* entry = historyEntry(entrySerial);
    const bool undoneBefore = entry && entry->undone;
    if (!applyValue(*row, value)) return false;
    PendingApply* pending = lastPending_;
    if (entry) entry->undone = kind == ParamEdit::Kind::Undo;  // (applyValue keeps history_)
    const std::uint64_t serial = nextSerial_++;
    history_.push_back({std::chrono::system_clock::now(), key, old, value, kind, false});
    historySerials_.push_back(serial);
    if (pending) {
        pending->via =
            kind == ParamEdit::Kind::Undo ? PendingApply::Via::Undo : PendingApply::Via::Redo;
        pending->command = entrySerial;
        pending->entry = serial;
        pending->undoneBefore = undoneBefore;
    }
    emit parameterEdited(qs(key), qs(summarizeValue(value, kSummaryChars)));
    return true;
}

void ParameterPanel::sliderMoved(Row& row, int position) {
    if (applying_) return;
    const ParamValue v = widgetValue(row, position);
    if (!(row.slider->isSliderDown() && drag_.row == &row)) {
        userEdit(row, v, true);  // keyboard, wheel, page click: merged while quick
        return;
    }
    {  // show the value at once; applying it waits for the rate limit
        const QSignalBlocker b1(row.real), b2(row.integer);
        if (row.real) row.real->setValue(std::get<double>(v));
        if (row.integer) row.integer->setValue(static_cast<int>(std::get<std::int64_t>(v)));
    }
    drag_.waiting = v;
    const auto since = std::chrono::steady_clock::now() - drag_.lastApply;
    if (since >= kDragApplyInterval) {
        flushDrag();
    } else if (!dragTimer_->isActive()) {
        dragTimer_->start(
            std::chrono::duration_cast<std::chrono::milliseconds>(kDragApplyInterval - since));
    }
}

void ParameterPanel::beginDrag(Row& row) {
    if (drag_.row && drag_.row != &row) endDrag(*drag_.row);
    drag_ = Drag{};
    drag_.row = &row;
    drag_.start = current_.at(row.spec->key());
}

void ParameterPanel::flushDrag() {
    if (!drag_.row || !drag_.waiting) return;
    const ParamValue v = *drag_.waiting;
    drag_.waiting.reset();
    drag_.lastApply = std::chrono::steady_clock::now();
    // Rejections in the middle of a drag only mark the row; the signal (which the window
    // logs) is for where the drag ends.
    if (v != current_.at(drag_.row->spec->key()))
        drag_.lastFailed = !applyValue(*drag_.row, v, false);
}

void ParameterPanel::endDrag(Row& row) {
    if (drag_.row != &row) return;
    dragTimer_->stop();
    if (drag_.waiting) {  // the value where the drag ends is always applied
        const ParamValue last = *drag_.waiting;
        drag_.waiting.reset();
        if (last != current_.at(row.spec->key())) applyValue(row, last, true);
    } else if (drag_.lastFailed) {
        emit editRejected(row.error);  // the end position was tried (and refused) already
    }
    const ParamValue start = drag_.start;
    drag_ = Drag{};
    showValue(row);
    const std::string key = row.spec->key();
    const ParamValue& now = current_.at(key);
    if (now == start) return;
    const std::uint64_t step = pushEdit(row, start, now, ParamEdit::Kind::Edit, false, nullptr);
    // The drag's last apply still in flight (if any) is the one its undo entry stands for.
    for (auto it = pendingApplies_.rbegin(); it != pendingApplies_.rend(); ++it)
        if (it->key == key) {
            if (it->via == PendingApply::Via::Edit && it->step == 0) it->step = step;
            break;
        }
}

bool ParameterPanel::edit(const std::string& key, const ParamValue& value) {
    Row* row = rowFor(key);
    if (!row) return false;
    userEdit(*row, value, false);
    return row->error.isEmpty();
}

void ParameterPanel::resetToDefault(const std::string& key) {
    if (Row* r = rowFor(key)) resetRows({r}, tr("Reset %1").arg(qs(key)));
}

void ParameterPanel::resetGroup(const std::string& group) {
    std::vector<Row*> rows;
    for (auto& r : rows_)
        if (r->spec->group == group) rows.push_back(r.get());
    resetRows(rows, tr("Reset group %1").arg(qs(group)));
}

void ParameterPanel::resetAll() {
    std::vector<Row*> rows;
    for (auto& r : rows_)
        rows.push_back(r.get());
    resetRows(rows, tr("Reset all parameters"));
}

void ParameterPanel::resetRows(const std::vector<Row*>& rows, const QString& text) {
    if (applying_) return;
    auto macro = std::make_unique<QUndoCommand>(text);
    for (Row* r : rows) {
        const std::string key = r->spec->key();
        const ParamValue old = current_.at(key);
        if (old == r->spec->defaultValue) continue;
        if (!applyValue(*r, r->spec->defaultValue)) continue;
        PendingApply* pending = lastPending_;
        const std::uint64_t step =
            pushEdit(*r, old, current_.at(key), ParamEdit::Kind::Reset, false, macro.get());
        if (pending) pending->step = step;
    }
    if (macro->childCount() > 0) undo_->push(macro.release());
}

// ---- outside changes ---------------------------------------------------------------------

void ParameterPanel::setValue(const std::string& key, const ParamValue& value) {
    Row* row = rowFor(key);
    if (!row) table_->at(key);  // throws ParameterError naming the closest keys
    if (!row) throw ParameterError("parameter '" + key + "' is not shown in the panel");
    current_[key] = validateValue(*row->spec, value);
    row->error.clear();
    showValue(*row);
    updateTooltip(*row);
    updatePending();
}

void ParameterPanel::setValues(const ParamSet& values) {
    for (const ParamSpec& s : table_->specs())
        if (values.table().find(s.key())) setValue(s.key(), values.get(s.key()));
}

void ParameterPanel::markApplied() {
    applied_ = current_;
    for (auto& r : rows_)
        showValue(*r);
    updatePending();
}

std::vector<std::string> ParameterPanel::pendingKeys() const {
    std::vector<std::string> keys;
    for (const auto& r : rows_) {
        const std::string key = r->spec->key();
        if (r->spec->mutability == Mutability::Structural && current_.at(key) != applied_.at(key))
            keys.push_back(key);
    }
    return keys;
}

bool ParameterPanel::hasPendingReset() const {
    return !pendingKeys().empty();
}

ParamSet ParameterPanel::values() const {
    ParamSet set(*table_);
    for (const auto& [key, value] : current_)
        set.set(key, value);
    return set;
}

QString ParameterPanel::errorText(const std::string& key) const {
    const Row* r = rowFor(key);
    return r ? r->error : QString();
}

// ---- refusals that arrive later -------------------------------------------------------

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
