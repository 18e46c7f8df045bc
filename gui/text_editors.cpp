// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/text_editors.hpp"

#include <QAbstractTextDocumentLayout>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFocusEvent>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLineEdit>
#include <QTextBlock>
#include <QToolButton>
#include <algorithm>

namespace cf::gui {

// ---- TextParamEdit -------------------------------------------------------------------------

TextParamEdit::TextParamEdit(QWidget* parent) : QPlainTextEdit(parent) {
    setTabChangesFocus(true);  // a form: Tab moves on (pasted tabs are kept)
    setLineWrapMode(QPlainTextEdit::WidgetWidth);
    setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    document()->setDocumentMargin(2);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    // The height follows the number of laid-out lines (wrapped ones included).
    connect(document()->documentLayout(), &QAbstractTextDocumentLayout::documentSizeChanged, this,
            &TextParamEdit::fitHeight);
    fitHeight();
}

void TextParamEdit::setCommittedText(const QString& text) {
    // An unfinished edit (focus in the field, text changed) survives a refresh of the
    // committed value it started from; anything else shows the new value.
    const bool editing = hasFocus() && toPlainText() != committed_;
    if (editing && text == committed_) return;
    committed_ = text;
    if (toPlainText() != text) setPlainText(text);  // setPlainText moves the cursor home
}

void TextParamEdit::commit() {
    const QString text = toPlainText();
    if (text == committed_) return;
    committed_ = text;  // a receiver that rejects it sets the old text back
    emit committed(text);
}

int TextParamEdit::heightForLines(int lines) const {
    const int frame = 2 * frameWidth();
    const int margins = contentsMargins().top() + contentsMargins().bottom();
    const int docMargin = static_cast<int>(std::ceil(2.0 * document()->documentMargin()));
    return lines * fontMetrics().lineSpacing() + frame + margins + docMargin;
}

void TextParamEdit::fitHeight() {
    // QPlainTextDocumentLayout measures the document height in lines.
    const int lines =
        std::clamp(static_cast<int>(document()->documentLayout()->documentSize().height()), 1,
                   kMaxVisibleLines);
    setFixedHeight(heightForLines(lines));
}

QSize TextParamEdit::sizeHint() const {
    return {QPlainTextEdit::sizeHint().width(), height()};
}

QSize TextParamEdit::minimumSizeHint() const {
    return {fontMetrics().averageCharWidth() * 8, heightForLines(1)};
}

void TextParamEdit::keyPressEvent(QKeyEvent* event) {
    const bool enter = event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter;
    if (enter && (event->modifiers() & (Qt::ShiftModifier | Qt::ControlModifier))) {
        textCursor().insertText(QStringLiteral("\n"));  // a new block, not U+2028
        return;
    }
    if (enter) {
        commit();
        return;
    }
    if (event->key() == Qt::Key_Escape && toPlainText() != committed_) {
        setPlainText(committed_);
        moveCursor(QTextCursor::End);
        return;
    }
    QPlainTextEdit::keyPressEvent(event);
}

void TextParamEdit::focusOutEvent(QFocusEvent* event) {
    // A context menu or completer popup is not the end of the edit.
    if (event->reason() != Qt::PopupFocusReason) commit();
    QPlainTextEdit::focusOutEvent(event);
}

// ---- FilePathEdit --------------------------------------------------------------------------

FilePathEdit::FilePathEdit(QWidget* parent) : QWidget(parent) {
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    line_ = new QLineEdit(this);
    line_->setPlaceholderText(tr("none"));
    line_->installEventFilter(this);
    layout->addWidget(line_, 1);
    button_ = new QToolButton(this);
    button_->setText(QStringLiteral("..."));
    button_->setToolTip(tr("Choose a file"));
    layout->addWidget(button_);
    setFocusProxy(line_);
    connect(line_, &QLineEdit::returnPressed, this, &FilePathEdit::commit);
    connect(button_, &QToolButton::clicked, this, &FilePathEdit::browse);
    chooser_ = [](QWidget* parentWidget, const QString& start) {
        return QFileDialog::getOpenFileName(parentWidget, tr("Choose a file"), start);
    };
}

void FilePathEdit::setCommittedText(const QString& path) {
    const bool editing = line_->hasFocus() && line_->text() != committed_;
    if (editing && path == committed_) return;
    committed_ = path;
    if (line_->text() != path) line_->setText(path);
    line_->setCursorPosition(static_cast<int>(path.size()));  // the file name is the end
}

QString FilePathEdit::absolute(const QString& path) const {
    if (path.isEmpty()) return path;
    QString p = path;
    if (p == QLatin1String("~") || p.startsWith(QLatin1String("~/")))
        p = QDir::homePath() + p.mid(1);
    if (QFileInfo(p).isAbsolute()) return QDir::cleanPath(p);
    const QDir base(base_.isEmpty() ? QDir::currentPath() : base_);
    return QDir::cleanPath(base.absoluteFilePath(p));
}

void FilePathEdit::commit() {
    const QString path = absolute(line_->text().trimmed());
    if (path != line_->text()) line_->setText(path);
    if (path == committed_) return;
    committed_ = path;
    emit committed(path);
}

void FilePathEdit::browse() {
    QString start = committed_;
    if (start.isEmpty()) start = base_.isEmpty() ? QDir::currentPath() : base_;
    const QString chosen = chooser_ ? chooser_(this, start) : QString();
    if (chosen.isEmpty()) return;  // cancelled
    line_->setText(chosen);
    commit();
}

bool FilePathEdit::eventFilter(QObject* watched, QEvent* event) {
    if (watched == line_) {
        if (event->type() == QEvent::FocusOut &&
            static_cast<QFocusEvent*>(event)->reason() != Qt::PopupFocusReason)
            commit();
        if (event->type() == QEvent::KeyPress &&
            static_cast<QKeyEvent*>(event)->key() == Qt::Key_Escape &&
            line_->text() != committed_) {
            line_->setText(committed_);
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

}  // namespace cf::gui
