// SPDX-License-Identifier: GPL-3.0-or-later
// The panel's state and edits: apply, reject, undo/redo, slider drags, resets, values set
// from outside. Building and drawing the rows is in parameter_panel_rows.cpp.
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

#include "gui/parameter_panel_command.hpp"

namespace cf::gui {

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

}  // namespace cf::gui
