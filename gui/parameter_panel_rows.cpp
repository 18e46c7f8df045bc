// SPDX-License-Identifier: GPL-3.0-or-later
// Building the panel's rows from a ParamTable and showing values, pending and rejected
// states, tooltips and the search filter.
#include "gui/parameter_panel_rows.hpp"

#include <QDir>
#include <QEvent>
#include <QFrame>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QRegularExpression>
#include <QScrollArea>
#include <QScrollBar>
#include <QStyle>
#include <QTimer>
#include <QUndoStack>
#include <QVBoxLayout>
#include <algorithm>
#include <climits>

#include "gui/parameter_panel.hpp"

namespace cf::gui {
namespace {

constexpr const char* kStructuralColour = "#9a5b00";
// The structural tag is plain small italic text, neither framed nor filled: it says when a
// value applies and is no button (the row's reset button is the arrow at its end).
constexpr const char* kTagStyle = "QLabel { color: #9a5b00; font-style: italic; }";
constexpr const char* kPendingTagStyle =
    "QLabel { color: #c25400; font-style: italic; font-weight: bold; }";
constexpr const char* kMarkerStyle =
    "QLabel { color: white; background: #d32f2f; border-radius: 7px; font-weight: bold; }";
// The red outline of a refused row's editor (only while it is refused: a style sheet changes
// how the style draws the widget).
constexpr const char* kRefusedStyle = "%1 { border: 2px solid #d32f2f; border-radius: 3px; }";

// "um^2/s" -> "µm²/s"; dimensionless ("1") shows nothing.
QString displayUnit(const std::string& unit) {
    if (unit.empty() || unit == "1") return {};
    QString u = qs(unit);
    static const QRegularExpression micro(QStringLiteral("\\bum\\b"));
    u.replace(micro, QStringLiteral("\u00b5m"));
    u.replace(QStringLiteral("^-1"), QStringLiteral("\u207b\u00b9"));
    u.replace(QStringLiteral("^2"), QStringLiteral("\u00b2"));
    u.replace(QStringLiteral("^3"), QStringLiteral("\u00b3"));
    return u;
}

// Text defaults quoted and on one line (an empty default still shows as "").
std::string defaultText(const ParamSpec& s) {
    return s.type == ParamType::Text ? "\"" + summarizeValue(s.defaultValue) + "\""
                                     : formatValue(s.defaultValue);
}

// Wheel events over an editor that has no focus scroll the panel instead of changing the
// value under the pointer by accident.
class WheelGuard : public QObject {
public:
    using QObject::QObject;
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (event->type() == QEvent::Wheel) {
            auto* w = qobject_cast<QWidget*>(watched);
            if (w && !w->hasFocus()) {
                event->ignore();  // propagates to the scroll area
                return true;
            }
        }
        return false;
    }
};

}  // namespace

void ParameterPanel::setParameters(const ParamTable& table, const ParamSet& values) {
    static const ParamTable empty;
    dragTimer_->stop();
    drag_ = Drag{};
    pendingTimer_->stop();
    pendingApplies_.clear();  // a new run: what the old one refuses no longer matters
    lastPending_ = nullptr;
    undo_->clear();
    history_.clear();
    historySerials_.clear();
    delete content_;
    sections_.clear();
    rows_.clear();
    current_.clear();
    table_ = table.specs().empty() ? &empty : &table;
    for (const ParamSpec& s : table_->specs())
        current_[s.key()] = values.table().find(s.key()) ? values.get(s.key()) : s.defaultValue;
    applied_ = current_;

    content_ = new QWidget;
    content_->setObjectName("parameterContent");
    sectionsLayout_ = new QVBoxLayout(content_);
    sectionsLayout_->setContentsMargins(0, 0, 0, 0);
    sectionsLayout_->setSpacing(6);
    auto* wheelGuard = new WheelGuard(content_);

    for (const std::string& group : table_->groups()) {
        auto section = std::make_unique<Section>();
        Section& sec = *section;
        sec.group = group;
        sec.box = new QFrame(content_);
        sec.box->setObjectName(qs("section:" + group));
        static_cast<QFrame*>(sec.box)->setFrameShape(QFrame::StyledPanel);
        auto* boxLayout = new QVBoxLayout(sec.box);
        boxLayout->setContentsMargins(4, 2, 4, 4);
        boxLayout->setSpacing(2);
        auto* head = new QHBoxLayout;
        sec.header = new QToolButton(sec.box);
        sec.header->setObjectName(qs("sectionHeader:" + group));
        sec.header->setText(qs(group));
        sec.header->setCheckable(true);
        sec.header->setChecked(true);
        sec.header->setArrowType(Qt::DownArrow);
        sec.header->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
        sec.header->setAutoRaise(true);
        sec.header->setStyleSheet("QToolButton { border: none; font-weight: bold; }");
        sec.header->setToolTip(tr("Show or hide the parameters of %1").arg(qs(group)));
        head->addWidget(sec.header);
        head->addStretch(1);
        sec.reset = new QToolButton(sec.box);
        sec.reset->setObjectName(qs("groupReset:" + group));
        // The same arrow as the rows' reset buttons, under the rows' column of them.
        sec.reset->setIcon(style()->standardIcon(QStyle::SP_BrowserReload));
        sec.reset->setAutoRaise(true);
        sec.reset->setToolTip(
            tr("Set every parameter of %1 to its default (one undo step)").arg(qs(group)));
        head->addWidget(sec.reset);
        boxLayout->addLayout(head);
        sec.body = new QWidget(sec.box);
        sec.grid = new QGridLayout(sec.body);
        sec.grid->setContentsMargins(8, 0, 0, 0);
        sec.grid->setHorizontalSpacing(4);
        sec.grid->setVerticalSpacing(3);
        sec.grid->setColumnStretch(1, 1);
        boxLayout->addWidget(sec.body);
        connect(sec.header, &QToolButton::toggled, this, [&sec](bool open) {
            sec.body->setVisible(open);
            sec.header->setArrowType(open ? Qt::DownArrow : Qt::RightArrow);
        });
        connect(sec.reset, &QToolButton::clicked, this, [this, g = group] { resetGroup(g); });
        sectionsLayout_->addWidget(sec.box);
        sections_.push_back(std::move(section));
    }
    for (const ParamSpec& s : table_->specs()) {
        auto it = std::find_if(sections_.begin(), sections_.end(),
                               [&](const auto& sec) { return sec->group == s.group; });
        buildRow(**it, s, static_cast<int>((*it)->rows.size()));
    }
    auto* noMatch = new QLabel(tr("No parameter matches the search."), content_);
    noMatch->setObjectName("noMatch");
    noMatch->setAlignment(Qt::AlignCenter);
    noMatch->setVisible(false);
    sectionsLayout_->addWidget(noMatch);
    sectionsLayout_->addStretch(1);

    // Same column widths in every section, so the groups line up.
    int nameWidth = 0, editorWidth = 70, unitWidth = 0;
    for (const auto& r : rows_) {
        if (r->tag) {  // room for the longer pending tag
            r->tag->setText(tr("pending"));
            r->tag->setStyleSheet(kPendingTagStyle);
        }
        nameWidth = std::max(nameWidth, r->nameCell->sizeHint().width());
        if (r->real || r->integer)
            editorWidth = std::max(editorWidth, r->editor()->sizeHint().width());
        unitWidth = std::max(unitWidth, r->unit->sizeHint().width());
    }
    for (const auto& r : rows_) {
        r->nameCell->setMinimumWidth(nameWidth);
        // Narrow enough that the reset buttons fit a small screen's dock; the value scrolls.
        if (r->real || r->integer) r->editor()->setMinimumWidth(std::min(editorWidth, 68));
        r->unit->setMinimumWidth(unitWidth);
        for (QWidget* w : r->widgets())
            w->installEventFilter(wheelGuard);
        showValue(*r);
        updateTooltip(*r);
        connectRow(*r);
    }
    scroll_->setWidget(content_);
    pending_ = false;
    applyFilter();
}

void ParameterPanel::buildRow(Section& sec, const ParamSpec& spec, int gridRow) {
    auto row = std::make_unique<Row>();
    Row& r = *row;
    r.spec = &spec;
    r.section = &sec;
    const std::string& key = spec.key();
    QWidget* parent = sec.body;

    r.nameCell = new QWidget(parent);
    auto* nameLayout = new QHBoxLayout(r.nameCell);
    nameLayout->setContentsMargins(0, 0, 0, 0);
    nameLayout->setSpacing(4);
    r.name = new QLabel(qs(spec.name), r.nameCell);
    r.name->setObjectName(qs("name:" + key));
    nameLayout->addWidget(r.name);
    if (spec.mutability == Mutability::Structural) {
        r.name->setStyleSheet(QString("QLabel { color: %1; }").arg(kStructuralColour));
        r.tag = new QLabel(tr("at reset"), r.nameCell);
        r.tag->setObjectName(qs("tag:" + key));
        QFont small = r.tag->font();
        small.setPointSizeF(small.pointSizeF() * 0.8);
        r.tag->setFont(small);
        r.tag->setStyleSheet(kTagStyle);
        nameLayout->addWidget(r.tag);
    }
    nameLayout->addStretch(1);
    // A text field may be several lines high: the rest of its row stays on its first line.
    const Qt::Alignment align = spec.type == ParamType::Text ? Qt::AlignTop : Qt::Alignment();
    sec.grid->addWidget(r.nameCell, gridRow, 0, align);

    switch (spec.type) {
        case ParamType::Real:
        case ParamType::Integer: {
            r.scale = SliderScale::forSpec(spec);
            r.slider = new QSlider(Qt::Horizontal, parent);
            r.slider->setObjectName(qs("slider:" + key));
            r.slider->setRange(0, r.scale.positions());
            r.slider->setPageStep(std::max(1, r.scale.positions() / 10));
            r.slider->setFocusPolicy(Qt::StrongFocus);
            r.slider->setEnabled(r.scale.positions() > 0);
            r.slider->setMinimumWidth(24);
            sec.grid->addWidget(r.slider, gridRow, 1);
            QAbstractSpinBox* box = nullptr;
            if (spec.type == ParamType::Real) {
                r.real = new RealSpinBox(parent);
                r.real->setParameterRange(spec.min, spec.max);  // arrows; typing is free
                box = r.real;
            } else {
                r.integer = new IntegerSpinBox(parent);
                r.integer->setParameterRange(
                    static_cast<int>(std::clamp<double>(spec.min, INT_MIN, INT_MAX)),
                    static_cast<int>(std::clamp<double>(spec.max, INT_MIN, INT_MAX)));
                box = r.integer;
            }
            box->setObjectName(qs("spin:" + key));
            box->setFocusPolicy(Qt::StrongFocus);
            box->setAlignment(Qt::AlignRight);
            sec.grid->addWidget(box, gridRow, 2);
            break;
        }
        case ParamType::Boolean:
            r.check = new QCheckBox(parent);
            r.check->setObjectName(qs("check:" + key));
            sec.grid->addWidget(r.check, gridRow, 1, 1, 2);
            break;
        case ParamType::Choice:
            r.combo = new QComboBox(parent);
            r.combo->setObjectName(qs("combo:" + key));
            r.combo->setFocusPolicy(Qt::StrongFocus);
            for (const std::string& c : spec.choices)
                r.combo->addItem(qs(c));
            // A long choice is elided rather than widening the dock past its reset buttons.
            r.combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
            r.combo->setMinimumContentsLength(8);
            sec.grid->addWidget(r.combo, gridRow, 1, 1, 2);
            break;
        case ParamType::Text:
            if (spec.textKind == TextKind::FilePath) {
                r.path = new FilePathEdit(parent);
                r.path->setObjectName(qs("path:" + key));
                r.path->lineEdit()->setObjectName(qs("pathEdit:" + key));
                r.path->browseButton()->setObjectName(qs("browse:" + key));
                r.path->setBaseDirectory(fileBaseDirectory_);
                if (fileChooser_) r.path->setChooser(fileChooser_);
                sec.grid->addWidget(r.path, gridRow, 1, 1, 2);
            } else {
                r.text = new TextParamEdit(parent);
                r.text->setObjectName(qs("text:" + key));
                sec.grid->addWidget(r.text, gridRow, 1, 1, 2);
            }
            break;
    }

    r.unit = new QLabel(displayUnit(spec.unit), parent);
    r.unit->setObjectName(qs("unit:" + key));
    sec.grid->addWidget(r.unit, gridRow, 3, align);
    r.marker = new QLabel(parent);
    r.marker->setObjectName(qs("marker:" + key));
    r.marker->setFixedSize(14, 14);
    r.marker->setAlignment(Qt::AlignCenter);
    sec.grid->addWidget(r.marker, gridRow, 4, align);
    r.reset = new QToolButton(parent);
    r.reset->setObjectName(qs("reset:" + key));
    r.reset->setIcon(style()->standardIcon(QStyle::SP_BrowserReload));
    r.reset->setAutoRaise(true);
    r.reset->setToolTip(tr("Reset %1 to its default, %2").arg(qs(key), qs(defaultText(spec))));
    sec.grid->addWidget(r.reset, gridRow, 5, align);

    sec.rows.push_back(&r);
    rows_.push_back(std::move(row));
}

// ---- display -----------------------------------------------------------------------------

void ParameterPanel::showValue(Row& row) {
    const std::string key = row.spec->key();
    const ParamValue& v = current_.at(key);
    const bool pending = row.spec->mutability == Mutability::Structural && v != applied_.at(key);
    const QSignalBlocker b1(row.slider), b2(row.real), b3(row.integer), b4(row.check),
        b5(row.combo), b6(row.text), b7(row.path);
    if (row.real) row.real->setValue(std::get<double>(v));
    if (row.integer) row.integer->setValue(static_cast<int>(std::get<std::int64_t>(v)));
    if (row.slider && !row.slider->isSliderDown()) {
        const double x =
            row.real ? std::get<double>(v) : static_cast<double>(std::get<std::int64_t>(v));
        row.slider->setValue(row.scale.positionOf(x));
    }
    if (row.check) row.check->setChecked(std::get<bool>(v));
    if (row.combo) row.combo->setCurrentIndex(row.combo->findText(qs(std::get<std::string>(v))));
    if (row.text) row.text->setCommittedText(qs(std::get<std::string>(v)));
    if (row.path) row.path->setCommittedText(qs(std::get<std::string>(v)));
    if (QWidget* editor = row.editor()) {
        QFont f = editor->font();
        f.setItalic(pending);
        editor->setFont(f);
    }
    if (row.tag) {
        row.tag->setText(pending ? tr("pending") : tr("at reset"));
        row.tag->setStyleSheet(pending ? kPendingTagStyle : kTagStyle);
    }
    row.reset->setEnabled(v != row.spec->defaultValue);
    QWidget* outlined = row.path ? static_cast<QWidget*>(row.path->lineEdit()) : row.editor();
    if (outlined) {
        const char* type = row.real || row.integer ? "QAbstractSpinBox"
                           : row.check             ? "QCheckBox"
                           : row.combo             ? "QComboBox"
                           : row.text              ? "QPlainTextEdit"
                                                   : "QLineEdit";
        const QString style =
            row.error.isEmpty() ? QString() : QString(kRefusedStyle).arg(QLatin1String(type));
        if (outlined->styleSheet() != style) outlined->setStyleSheet(style);
    }
    row.marker->setText(row.error.isEmpty() ? QString() : QStringLiteral("!"));
    row.marker->setStyleSheet(row.error.isEmpty() ? QString() : QString(kMarkerStyle));
    row.marker->setToolTip(row.error);
}

void ParameterPanel::showError(Row& row, const QString& message, bool report) {
    row.error = message;
    showValue(row);  // back to the last good value
    updateTooltip(row);
    if (report) emit editRejected(message);
}

void ParameterPanel::updateTooltip(Row& row) {
    const ParamSpec& s = *row.spec;
    const bool structural = s.mutability == Mutability::Structural;
    QString tip = QString("<b>%1</b>").arg(qs(s.key()).toHtmlEscaped());
    if (!s.description.empty()) tip += "<br>" + qs(s.description).toHtmlEscaped();
    tip += "<br>" + tr("Range: %1").arg(qs(s.rangeText()).toHtmlEscaped());
    const QString unit = displayUnit(s.unit);
    tip += "<br>" + tr("Default: %1").arg(qs(defaultText(s)).toHtmlEscaped()) +
           (unit.isEmpty() ? QString() : " " + unit.toHtmlEscaped());
    if (row.text) tip += "<br>" + tr("Enter applies, Shift+Enter starts a new line, Esc reverts");
    if (row.path)
        tip += "<br>" +
               tr("Enter applies; a relative path is taken from %1")
                   .arg((fileBaseDirectory_.isEmpty() ? QDir::currentPath() : fileBaseDirectory_)
                            .toHtmlEscaped());
    tip += "<br><i>" +
           (structural ? tr("structural: applies at the next reset")
                       : tr("live: applies at the next step")) +
           "</i>";
    if (!row.error.isEmpty())
        tip += "<br><span style='color:#d32f2f'>" +
               tr("Rejected: %1").arg(row.error.toHtmlEscaped()) + "</span>";
    for (QWidget* w : row.widgets())
        if (w != row.reset && w != row.marker) w->setToolTip(tip);
    row.name->setToolTip(tip);
    if (row.tag) row.tag->setToolTip(tip);
    if (row.error.isEmpty()) row.marker->setToolTip(QString());
}

void ParameterPanel::updatePending() {
    const bool pending = hasPendingReset();
    for (auto& r : rows_)
        if (r->tag) showValue(*r);
    if (pending != pending_) {
        pending_ = pending;
        emit pendingResetChanged(pending);
    }
}

int ParameterPanel::fittingWidth() const {
    const QMargins m = layout()->contentsMargins();
    const int bar = scroll_->verticalScrollBar()->sizeHint().width();
    const int rows = content_->minimumSizeHint().width() + bar + 2 * scroll_->frameWidth();
    const int top = layout()->itemAt(0)->minimumSize().width();  // search, undo, redo, reset all
    return std::max(rows, top) + m.left() + m.right();
}

void ParameterPanel::setFilter(const QString& text) {
    search_->setText(text);  // textChanged -> applyFilter
    applyFilter();
}

void ParameterPanel::applyFilter() {
    const QString text = search_->text().trimmed();
    bool any = false;
    for (auto& sec : sections_) {
        bool sectionVisible = false;
        for (Row* r : sec->rows) {
            const ParamSpec& s = *r->spec;
            r->visible = text.isEmpty() || qs(s.key()).contains(text, Qt::CaseInsensitive) ||
                         qs(s.description).contains(text, Qt::CaseInsensitive);
            for (QWidget* w : r->widgets())
                w->setVisible(r->visible);
            sectionVisible = sectionVisible || r->visible;
        }
        sec->box->setVisible(sectionVisible);
        any = any || sectionVisible;
    }
    if (auto* noMatch = content_->findChild<QLabel*>("noMatch"))
        noMatch->setVisible(!any && !rows_.empty());
}

}  // namespace cf::gui
