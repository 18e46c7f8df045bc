// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/model_text_editor.hpp"

#include <QFontDatabase>
#include <QHBoxLayout>
#include <QKeySequence>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QShortcut>
#include <QTabWidget>
#include <QTextBlock>
#include <QVBoxLayout>

namespace cf::gui {

namespace {

QPlainTextEdit* codeView(QWidget* parent, bool readOnly) {
    auto* view = new QPlainTextEdit(parent);
    view->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    view->setLineWrapMode(QPlainTextEdit::NoWrap);
    view->setReadOnly(readOnly);
    view->setTabStopDistance(4 * view->fontMetrics().horizontalAdvance(' '));
    return view;
}

}  // namespace

ModelTextEditor::ModelTextEditor(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    origin_ = new QLabel(this);
    origin_->setObjectName("modelTextOrigin");
    origin_->setWordWrap(true);
    layout->addWidget(origin_);

    tabs_ = new QTabWidget(this);
    edit_ = codeView(tabs_, false);
    edit_->setObjectName("modelTextEdit");
    generated_ = codeView(tabs_, true);
    generated_->setObjectName("modelGeneratedCode");
    tabs_->addTab(edit_, tr("Model"));
    tabs_->addTab(generated_, tr("Generated CUDA"));
    layout->addWidget(tabs_, 1);

    message_ = new QLabel(this);
    message_->setObjectName("modelTextMessage");
    message_->setWordWrap(true);
    message_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    message_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    layout->addWidget(message_);

    auto* buttons = new QHBoxLayout;
    apply_ = new QPushButton(tr("Apply"), this);
    apply_->setObjectName("modelTextApply");
    apply_->setToolTip(
        tr("Compile the text and run it in place of the current model; states "
           "of the same name keep their values (Ctrl+Return)"));
    revert_ = new QPushButton(tr("Revert"), this);
    revert_->setToolTip(tr("Back to the text the simulation runs"));
    buttons->addStretch(1);
    buttons->addWidget(revert_);
    buttons->addWidget(apply_);
    layout->addLayout(buttons);

    connect(apply_, &QPushButton::clicked, this, [this] { emit applyRequested(text()); });
    connect(revert_, &QPushButton::clicked, this, [this] {
        edit_->setPlainText(committed_);
        message_->clear();
    });
    auto* shortcut = new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return), edit_);
    shortcut->setContext(Qt::WidgetShortcut);
    connect(shortcut, &QShortcut::activated, apply_, &QPushButton::click);
    connect(edit_, &QPlainTextEdit::textChanged, this, &ModelTextEditor::updateButtons);
    updateButtons();
}

void ModelTextEditor::setCommittedText(const QString& text, const QString& origin, bool keepEdits) {
    // Text typed but not applied stays (when asked); Revert brings the new committed text.
    keepEdits = keepEdits && modified() && !committed_.isEmpty();
    committed_ = text;
    if (!keepEdits && edit_->toPlainText() != text) edit_->setPlainText(text);
    origin_->setText(origin);
    updateButtons();
}

void ModelTextEditor::setGenerated(const QString& code) {
    generated_->setPlainText(code);
}

QString ModelTextEditor::text() const {
    return edit_->toPlainText();
}

bool ModelTextEditor::modified() const {
    return edit_->toPlainText() != committed_;
}

void ModelTextEditor::showError(const QString& message, const QString& lineTag) {
    message_->setStyleSheet("color: #c0392b;");
    message_->setText(message);
    const QRegularExpression at(QRegularExpression::escape(lineTag) + ":(\\d+):(\\d+)");
    const QRegularExpressionMatch m = at.match(message);
    if (!m.hasMatch()) return;
    const int line = m.captured(1).toInt(), column = m.captured(2).toInt();
    const QTextBlock block = edit_->document()->findBlockByNumber(line - 1);
    if (!block.isValid()) return;
    QTextCursor cursor(block);
    cursor.movePosition(QTextCursor::Right, QTextCursor::MoveAnchor,
                        std::min(std::max(column - 1, 0), block.length() - 1));
    edit_->setTextCursor(cursor);
    edit_->centerCursor();
    tabs_->setCurrentWidget(edit_);
    edit_->setFocus();
}

void ModelTextEditor::showStatus(const QString& message) {
    message_->setStyleSheet(QString());
    message_->setText(message);
}

void ModelTextEditor::updateButtons() {
    apply_->setEnabled(modified());
    revert_->setEnabled(modified());
}

}  // namespace cf::gui
